import { AppError, invalidInput } from '@app/service-kit';
import type { Occupancy } from '../db/seat-guard.js';

/** The schedule's rules a booking or hold is judged by (from the availability answer). */
export interface SeatRules {
  seatsPerSlot: number;
  maxBookingsPerDay: number | null;
}

/** 400 naming seats when a request asks more seats than the schedule has per slot. */
export function requireSeatsFit(seats: number, rules: SeatRules): void {
  if (seats > rules.seatsPerSlot) {
    throw invalidInput('seats', `seats must be an integer from 1 to ${rules.seatsPerSlot}`);
  }
}

/**
 * One seat per slot and no day limit: the exclusion constraint alone can judge it (while no hold or shared booking is
 * in play, which the statement itself checks). Anything else is summed under the schedule lock.
 */
export function oneSeatRules(rules: SeatRules): boolean {
  return rules.seatsPerSlot === 1 && rules.maxBookingsPerDay === null;
}

export const SLOT_TAKEN_MESSAGE = 'This time slot is already booked';
const DAY_LIMIT_MESSAGE = "The schedule's daily booking limit is reached on that day";

/** SLOT_TAKEN when the seats would not fit at some instant, DAY_LIMIT_REACHED when the day is full, else nothing. */
export function requireRoom(seats: number, rules: SeatRules, taken: Occupancy): void {
  if (taken.usedSeats + seats > rules.seatsPerSlot) throw new AppError('SLOT_TAKEN', SLOT_TAKEN_MESSAGE);
  if (rules.maxBookingsPerDay !== null && taken.dayCount >= rules.maxBookingsPerDay) {
    throw new AppError('DAY_LIMIT_REACHED', DAY_LIMIT_MESSAGE);
  }
}
