import type { Bus } from './bus.js';
import { startConsumer, type ConsumerOptions, type RunningConsumer } from './consumer.js';
import { isJetStreamApiError, JetStreamCode } from './jetstream-errors.js';

/**
 * A consumer as a background task of a service (started after the app is built, stopped before the bus closes).
 * When its stream does not exist yet (the publishing service has never run), the service starts all the same and
 * the consumer keeps trying in the background until the stream appears; any other failure stops the start.
 */
export function consumerTask(bus: Bus, options: ConsumerOptions & { retryMs?: number }): { start(): Promise<void>; stop(): Promise<void> } {
  let running: RunningConsumer | undefined;
  let stopped = false;
  let waiting: Promise<void> | undefined;
  let wake = () => {};
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => (clearTimeout(timer), resolve());
    });
  const streamMissing = (error: unknown) => isJetStreamApiError(error, JetStreamCode.StreamNotFound);
  return {
    async start() {
      try {
        running = await startConsumer(bus, options);
        return;
      } catch (error) {
        if (!streamMissing(error)) throw error;
      }
      const stream = bus.streamName(options.stream.name);
      bus.log.warn({ consumer: options.durable, stream }, 'stream not created by its publisher yet; the consumer waits for it');
      waiting = (async () => {
        while (!stopped) {
          await pause(options.retryMs ?? 2000);
          if (stopped) return;
          try {
            running = await startConsumer(bus, options);
            bus.log.info({ consumer: options.durable, stream }, 'stream appeared; consuming');
            return;
          } catch (error) {
            if (!streamMissing(error))
              bus.log.error({ err: error, consumer: options.durable, stream }, 'consumer could not start; retrying');
          }
        }
      })();
    },
    async stop() {
      stopped = true;
      wake();
      await waiting;
      await running?.stop();
    },
  };
}
