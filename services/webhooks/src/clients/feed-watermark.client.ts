import type { StreamContract } from '@app/contracts';
import type { Bus } from '@app/service-kit';

/**
 * Asks the publishers of `streams` to publish their watermark now (each relay answers its stream's watermark request,
 * after putting the watermark in its stream, where the feed's ingester reads it). Settles when every one has answered
 * or failed: a publisher that is down leaves its stream's watermark where it is, and the next ask tries again.
 */
export async function askForWatermarks(bus: Bus, streams: readonly StreamContract[]): Promise<void> {
  const asked = await Promise.allSettled(streams.map((stream) => bus.request(stream.watermark.request, {})));
  const failed = streams.filter((_, index) => asked[index]?.status === 'rejected').map((stream) => stream.name);
  if (failed.length > 0) bus.log.debug({ streams: failed }, 'change feed: no watermark from these streams yet');
}
