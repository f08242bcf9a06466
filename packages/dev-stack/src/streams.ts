import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';

/** Deletes the JetStream streams of a NATS prefix (a benchmark or soak run leaves nothing behind). */
export async function deleteStreams(natsUrl: string, prefix: string): Promise<void> {
  const nc = await connect({ servers: natsUrl.split(',') });
  try {
    const jsm = await jetstreamManager(nc);
    for await (const stream of jsm.streams.list()) {
      if (stream.config.name.startsWith(`${prefix}_`)) await jsm.streams.delete(stream.config.name);
    }
  } finally {
    await nc.close();
  }
}
