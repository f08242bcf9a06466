import { createHash } from 'node:crypto';
import { isUuid, type IcsFeed } from '@app/contracts';
import { notFound, type Caller } from '@app/service-kit';
import * as feeds from '../db/ics-feed.repository.js';
import { feedCalendar } from '../domain/ics-feed-calendar.js';
import { feedUrl, hashFeedToken, newFeedToken, tokenOfFeedFile } from '../domain/feed-token.js';
import type { UseCaseContext } from './context.js';

const DAY_MS = 86_400_000;
/** API.md: a feed shows the bookings from 30 days ago to 365 days ahead. */
const FEED_PAST_DAYS = 30;
const FEED_FUTURE_DAYS = 365;

const feedNotFound = () => notFound('ICS feed');

/** Creates the schedule's feed, or replaces its token (the old URL is a 404 from then on). */
export async function createFeed(ctx: UseCaseContext, caller: Caller, rawScheduleId: string): Promise<IcsFeed> {
  // Scheduling answers SCHEDULE_NOT_FOUND for an unknown, malformed, inactive or another organization's schedule.
  const schedule = await ctx.scheduling.requireSchedule(caller.organizationId, rawScheduleId, caller.requestId);
  const token = newFeedToken();
  await feeds.upsertFeed(ctx.prisma, { organizationId: caller.organizationId, scheduleId: schedule.id, tokenHash: hashFeedToken(token) });
  return { url: feedUrl(ctx.publicBaseUrl, token) };
}

/**
 * Removes the schedule's feed. No question to scheduling: a feed of a schedule deleted since can be removed too,
 * and only the organization's own feeds are found.
 */
export async function deleteFeed(
  ctx: UseCaseContext,
  caller: Caller,
  rawScheduleId: string,
): Promise<{ schedule_id: string; deleted: true }> {
  const scheduleId = rawScheduleId.toLowerCase();
  const deleted = isUuid(scheduleId) && (await feeds.deleteFeed(ctx.prisma, caller.organizationId, scheduleId));
  if (!deleted) throw feedNotFound();
  return { schedule_id: scheduleId, deleted: true };
}

export interface FeedContent {
  body: string;
  /** Strong: a digest of the body. */
  etag: string;
  lastModified: Date;
}

/** The calendar at a feed URL's last segment (`<token>.ics`); 404 for a token that is not a feed's (any more). */
export async function feedContent(ctx: UseCaseContext, file: string, requestId: string): Promise<FeedContent> {
  const token = tokenOfFeedFile(file);
  if (token === null) throw feedNotFound();
  const tokenHash = hashFeedToken(token);
  const feed = await feeds.findFeedByToken(ctx.prisma, tokenHash);
  if (!feed) throw feedNotFound();
  const now = ctx.now().getTime();
  const window = { from: new Date(now - FEED_PAST_DAYS * DAY_MS), to: new Date(now + FEED_FUTURE_DAYS * DAY_MS) };
  const bookings = await ctx.bookings.feedBookings(feed.organizationId, feed.scheduleId, window, requestId);
  const body = feedCalendar(bookings, new URL(ctx.publicBaseUrl).hostname);
  const digest = createHash('sha256').update(body).digest('base64url');
  const lastModified = (await feeds.recordContent(ctx.prisma, tokenHash, digest)) ?? feed.createdAt;
  return { body, etag: `"${digest.slice(0, 27)}"`, lastModified };
}
