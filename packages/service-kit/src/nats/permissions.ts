import type { ServiceTopology } from '@app/contracts';
import { deadLetterStream, deadLetterSubjectsOf, OUTBOX_DEAD_LETTERS } from './dead-letter-naming.js';
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
 * - each in-order reader (`reads`, the change feed's): create, delete, info and pulls of that one consumer name on
 *   that stream, no acks (it has none), and the stream's info (which stream it is now), never a change to it;
 * - its dead letters (a consuming service's durables', a publishing service's set-aside outbox rows):
 *   `STREAM.INFO|CREATE|UPDATE` of its own dead-letter stream, and publishing on its durables' and its outbox's
 *   dead-letter subjects (`dlq.<service>.<durable|outbox>.>`) only;
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
      subject(deadLetterSubjectsOf(service, OUTBOX_DEAD_LETTERS)),
    );
  }
  const consumers = Object.values(topology.consumes);
  for (const consumer of consumers) {
    const stream = prefixedName(prefix, consumer.stream.name);
    const durable = prefixedName(prefix, consumer.durable);
    publish.push(
      api(`CONSUMER.CREATE.${stream}.${durable}`),
      api(`CONSUMER.CREATE.${stream}.${durable}.>`),
      api(`CONSUMER.INFO.${stream}.${durable}`),
      api(`CONSUMER.MSG.NEXT.${stream}.${durable}`),
      `$JS.ACK.${stream}.${durable}.>`,
      subject(deadLetterSubjectsOf(service, consumer.durable)),
    );
  }
  for (const reader of Object.values(topology.reads ?? {})) {
    const stream = prefixedName(prefix, reader.stream.name);
    const name = prefixedName(prefix, reader.name);
    publish.push(
      ...['CREATE', 'DELETE', 'INFO', 'MSG.NEXT'].map((verb) => api(`CONSUMER.${verb}.${stream}.${name}`)),
      api(`STREAM.INFO.${stream}`),
    );
  }
  if (hasDeadLetters(topology)) {
    const deadLetters = prefixedName(prefix, deadLetterStream(service).name);
    publish.push(...['INFO', 'CREATE', 'UPDATE'].map((verb) => api(`STREAM.${verb}.${deadLetters}`)));
  }
  publish.push(...topology.calls.map((request) => subject(request.subject)));
  if (topology.serves.length === 0) return { publish: { allow: publish }, subscribe: { allow: subscribe } };
  // The micro protocol's discovery: `$SRV.PING|INFO|STATS`, then the same with its name and with its instance id.
  subscribe.push(...topology.serves.map((request) => subject(request.subject)), '$SRV.*', `$SRV.*.${service}`, `$SRV.*.${service}.*`);
  return { publish: { allow: publish }, subscribe: { allow: subscribe }, allow_responses: true };
}

/** The NATS user of the `dlq` CLI (`npm run dlq`), and its reply subjects' prefix. */
export const DEAD_LETTER_ADMIN_USER = 'dlq';

/**
 * The least the `dlq` CLI needs under `prefix`: read (`STREAM.INFO`, `STREAM.MSG.GET`) and remove
 * (`STREAM.MSG.DELETE`) messages of every service's dead-letter stream, and publish a replayed event on the
 * subjects of the streams those services consume or (a set-aside outbox row) publish. No consumer rights and no
 * stream creation: it reads by sequence.
 */
export function deadLetterAdminPermissions(topologies: Readonly<Record<string, ServiceTopology>>, prefix: string): NatsPermissions {
  const publish = ['$JS.API.INFO'];
  for (const [service, topology] of Object.entries(topologies)) {
    if (!hasDeadLetters(topology)) continue;
    const stream = prefixedName(prefix, deadLetterStream(service).name);
    publish.push(...['INFO', 'MSG.GET', 'MSG.DELETE'].map((verb) => `$JS.API.STREAM.${verb}.${stream}`));
    const replayed = [
      ...Object.values(topology.consumes).map((consumer) => consumer.stream),
      ...(topology.publishes ? [topology.publishes] : []),
    ];
    for (const events of replayed) publish.push(...events.subjects.map((name) => prefixedSubject(prefix, name)));
  }
  return { publish: { allow: [...new Set(publish)] }, subscribe: { allow: [`${inboxPrefix(DEAD_LETTER_ADMIN_USER)}.>`] } };
}

/** Whether a service has a dead-letter stream: it consumes a stream (its durables') or publishes one (its outbox's). */
export function hasDeadLetters(topology: ServiceTopology): boolean {
  return topology.publishes !== null || Object.keys(topology.consumes).length > 0;
}
