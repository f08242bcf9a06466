import type { FeedWatermark, StreamContract } from '@app/contracts';
import type { Bus } from '@app/service-kit';

/**
 * Asks the publishers of `streams` for their watermarks (each relay answers its stream's watermark request with the
 * watermark and the stream sequence it is good for). Settles when every one has answered or failed: a publisher that
 * is down leaves its stream's watermark where it is, and the next ask tries again.
 */
export async function askForWatermarks(bus: Bus, streams: readonly StreamContract[]): Promise<Map<StreamContract, FeedWatermark>> {
  const asked = await Promise.allSettled(streams.map((stream) => bus.request(stream.watermark.request, {})));
  const answers = new Map<StreamContract, FeedWatermark>();
  asked.forEach((outcome, index) => {
    const stream = streams[index];
    if (stream && outcome.status === 'fulfilled') answers.set(stream, outcome.value);
  });
  const failed = streams.filter((stream) => !answers.has(stream)).map((stream) => stream.name);
  if (failed.length > 0) bus.log.debug({ streams: failed }, 'change feed: no watermark from these streams yet');
  return answers;
}
