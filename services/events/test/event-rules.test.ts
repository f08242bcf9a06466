import { describe, expect, it } from 'vitest';
import type { EventStatus } from '@app/contracts';
import { canTransition, transitionMessage } from '../src/domain/event-status.js';
import { isOpenForRegistration, isPast, remainingPlaces } from '../src/domain/registration-policy.js';
import { limitExceeded } from '../src/domain/waitlist.js';
import { firstFreeSlug, slugFromTitle } from '../src/domain/slug.js';

describe('canTransition', () => {
  it.each<[EventStatus, EventStatus, number, boolean]>([
    ['draft', 'published', 0, true],
    ['draft', 'cancelled', 0, true],
    ['published', 'cancelled', 5, true],
    ['published', 'draft', 0, true],
    ['published', 'draft', 1, false],
    ['cancelled', 'draft', 0, false],
    ['cancelled', 'published', 0, false],
    ['draft', 'draft', 0, true],
    ['cancelled', 'cancelled', 0, true],
  ])('when %s → %s with %i places taken, then %s', (from, to, taken, allowed) => {
    expect(canTransition(from, to, taken)).toBe(allowed);
  });

  it('when refused, then the message names both states', () => {
    expect(transitionMessage('cancelled', 'published')).toBe('Cannot transition from cancelled to published');
  });
});

describe('registration refusals', () => {
  const now = new Date('2026-06-01T12:00:00.000Z');
  const open = { status: 'published' as const, startsAt: new Date('2026-06-02T10:00:00Z'), endsAt: null, slots: 10 };

  /** What the admission decides from the event alone (no ticket type): the open check first, then the slots. */
  function refusal(event: typeof open | (Omit<typeof open, 'slots'> & { slots: number | null }), taken: number, quantity: number) {
    if (!isOpenForRegistration(event, now)) return 'EVENT_NOT_OPEN';
    return limitExceeded({ eventFree: remainingPlaces(event.slots, taken), typeFree: null }, quantity);
  }

  it.each([
    ['a published future event with room', open, 0, 1, null],
    ['the last places', open, 7, 3, null],
    ['one place too many', open, 8, 3, 'EVENT_FULL'],
    ['no limit', { ...open, slots: null }, 1000, 50, null],
    ['zero slots', { ...open, slots: 0 }, 0, 1, 'EVENT_FULL'],
    ['a draft', { ...open, status: 'draft' as const }, 0, 1, 'EVENT_NOT_OPEN'],
    ['a cancelled event', { ...open, status: 'cancelled' as const }, 0, 1, 'EVENT_NOT_OPEN'],
    ['a past event', { ...open, startsAt: new Date('2026-06-01T11:00:00Z') }, 0, 1, 'EVENT_NOT_OPEN'],
    ['an event under way', { ...open, startsAt: new Date('2026-06-01T11:00:00Z'), endsAt: new Date('2026-06-01T13:00:00Z') }, 0, 1, null],
    ['a full past event', { ...open, startsAt: new Date('2026-05-01T11:00:00Z') }, 10, 1, 'EVENT_NOT_OPEN'],
  ])('when %s, then %s', (_case, event, taken, quantity, expected) => {
    expect(refusal(event as typeof open, taken, quantity)).toBe(expected);
  });

  it('when the end is exactly now, then the event is not past yet', () => {
    expect(isPast({ startsAt: new Date('2026-06-01T10:00:00Z'), endsAt: now }, now)).toBe(false);
  });

  it('when slots is null, then remaining is null', () => {
    expect(remainingPlaces(null, 3)).toBeNull();
    expect(remainingPlaces(10, 3)).toBe(7);
  });
});

describe('slugFromTitle', () => {
  it.each([
    ['Café Meeting', 'cafe-meeting'],
    ['  30 Min — Intro Call!  ', '30-min-intro-call'],
    ['Über Größe & Straße', 'uber-grosse-and-strasse'],
    ['Ñandú   señor', 'nandu-senor'],
    ['!!!', 'event-type'],
    ['会议', 'event-type'],
    ['a'.repeat(150), 'a'.repeat(80)],
  ])('when %j, then %j', (title, slug) => {
    expect(slugFromTitle(title)).toBe(slug);
  });
});

describe('firstFreeSlug', () => {
  it.each([
    ['intro', [], 'intro'],
    ['intro', ['intro'], 'intro-2'],
    ['intro', ['intro', 'intro-2', 'intro-3'], 'intro-4'],
    ['intro', ['intro', 'intro-3'], 'intro-2'],
    ['intro', ['intro-2'], 'intro'],
  ])('when %s with %j taken, then %s', (base, taken, slug) => {
    expect(firstFreeSlug(base, new Set(taken))).toBe(slug);
  });
});
