import type { ServiceTopology } from '@app/contracts';
import { inboxPrefix, prefixedName, prefixedSubject } from './naming.js';

/** One NATS user's rights, as nats-server's `permissions` block takes them. */
export interface NatsPermissions {
  publish: { allow: string[] };
  subscribe: { allow: string[] };
  /** Lets a service reply to the requests it receives (the requester's reply subject, once, for a while). */
  allow_responses?: boolean;
}

/**
 * The least a service's user needs for what its topology says, under `prefix` (NATS_PREFIX). Found out against
 * nats-server 2.9 with the client the kit uses (test/nats-permissions.test.ts proves the services work with it):
 * - every connection: `$JS.API.INFO` (the JetStream manager checks the API once at connect) and its own inbox;
 * - its stream: the events' subjects, and `STREAM.INFO|CREATE|UPDATE` of that stream (the relay creates it, and
 *   updates its subjects when a deploy adds an event type);
 * - each durable of another service's stream: create/update (`CONSUMER.CREATE.<stream>.<durable>`, with a
 *   `.<filter subject>` tail when it takes one event type; only servers before 2.9 would want the older
 *   `CONSUMER.DURABLE.CREATE`), `CONSUMER.INFO` (read before pulling), pulls (`CONSUMER.MSG.NEXT`) and acks
 *   (`$JS.ACK`) of that durable only; never the stream itself: a consumer waits for its publisher to create it;
 * - requests it calls: publish; requests it serves: subscribe, with the micro protocol's discovery subjects of its
 *   own name (`nats micro`), and `allow_responses` instead of any right to publish on reply subjects.
 */
export function natsPermissions(service: string, topology: ServiceTopology, prefix: string): NatsPermissions {
  const subject = (name: string) => prefixedSubject(prefix, name);
  const api = (tail: string) => `$JS.API.${tail}`;
  const publish = [api('INFO')];
  const subscribe = [`${inboxPrefix(service)}.>`];
  if (topology.publishes) {
    const stream = prefixedName(prefix, topology.publishes.name);
    publish.push(
      ...topology.publishes.subjects.map(subject),
      ...['INFO', 'CREATE', 'UPDATE'].map((verb) => api(`STREAM.${verb}.${stream}`)),
    );
  }
  for (const consumer of Object.values(topology.consumes)) {
    const stream = prefixedName(prefix, consumer.stream.name);
    const durable = prefixedName(prefix, consumer.durable);
    publish.push(
      api(`CONSUMER.CREATE.${stream}.${durable}`),
      api(`CONSUMER.CREATE.${stream}.${durable}.>`),
      api(`CONSUMER.INFO.${stream}.${durable}`),
      api(`CONSUMER.MSG.NEXT.${stream}.${durable}`),
      `$JS.ACK.${stream}.${durable}.>`,
    );
  }
  publish.push(...topology.calls.map((request) => subject(request.subject)));
  if (topology.serves.length === 0) return { publish: { allow: publish }, subscribe: { allow: subscribe } };
  // The micro protocol's discovery: `$SRV.PING|INFO|STATS`, then the same with its name and with its instance id.
  subscribe.push(...topology.serves.map((request) => subject(request.subject)), '$SRV.*', `$SRV.*.${service}`, `$SRV.*.${service}.*`);
  return { publish: { allow: publish }, subscribe: { allow: subscribe }, allow_responses: true };
}
