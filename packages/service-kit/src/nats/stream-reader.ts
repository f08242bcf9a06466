import { AckPolicy, DeliverPolicy, type ConsumerMessages } from '@nats-io/jetstream';
import type { ReaderTopology } from '@app/contracts';
import type { Bus } from './bus.js';
import { isJetStreamApiError, JetStreamCode } from './jetstream-errors.js';

/** Messages a pull asks for. */
const PULL_BATCH = 256;
/** The server removes a reader nobody pulls from after this (a replica that died holding it). */
const INACTIVE_NS = 5 * 60 * 1_000_000_000;

/**
 * Which stream the reader's stream is now: its creation time (JetStream's `created`). A stream made again under the same
 * name (a new JetStream store) starts its sequences over, so a reader that kept where it was must start again too.
 */
export async function streamCreated(bus: Bus, reader: ReaderTopology): Promise<string> {
  return (await bus.jsm.streams.info(bus.streamName(reader.stream.name))).created;
}

/**
 * The messages of another service's stream, every one and in stream order, from `fromSequence` on: the in-order reader
 * of the topology (`reads`), made again under its name at that sequence each time (the reader keeps where it is in its
 * own schema, beside what it made of the messages, and reopens after a failure or a gap). No acks: a message is never
 * redelivered out of order. The stream is its publisher's: this fails with StreamNotFound until it exists.
 */
export async function readStreamInOrder(bus: Bus, reader: ReaderTopology, fromSequence: bigint): Promise<ConsumerMessages> {
  const stream = bus.streamName(reader.stream.name);
  const name = bus.streamName(reader.name);
  await bus.jsm.consumers.delete(stream, name).catch((error: unknown) => {
    if (!isJetStreamApiError(error, JetStreamCode.ConsumerNotFound)) throw error;
  });
  const info = await bus.jsm.consumers.add(stream, {
    name,
    ack_policy: AckPolicy.None,
    deliver_policy: DeliverPolicy.StartSequence,
    opt_start_seq: Number(fromSequence),
    inactive_threshold: INACTIVE_NS,
    mem_storage: true,
    num_replicas: 1,
  });
  // A reader that vanishes (another replica made it again, its stream was deleted) ends the iteration with an error,
  // rather than waiting for it to come back: the caller starts again from where it stored.
  return bus.js.consumers.getConsumerFromInfo(info).consume({ max_messages: PULL_BATCH, abort_on_missing_resource: true });
}
