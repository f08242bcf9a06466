import { JetStreamApiCodes, JetStreamApiError } from '@nats-io/jetstream';

/**
 * The JetStream API error codes (`err_code`, from nats-server's errors.json) the kit reacts to. The library
 * names only a few of them; the others are spelled out here once.
 */
export const JetStreamCode = {
  StreamNotFound: JetStreamApiCodes.StreamNotFound, // 10059
  ConsumerNotFound: JetStreamApiCodes.ConsumerNotFound, // 10014
  /** Create with another config than the existing durable's (nats-server ≥ 2.10 honours the create action). */
  ConsumerAlreadyExists: 10148,
  /** "consumer name already in use": older servers' way of saying the same. */
  ConsumerNameExist: 10013,
} as const;

/** True when JetStream's API refused the request with one of `codes`. */
export function isJetStreamApiError(error: unknown, ...codes: number[]): boolean {
  return error instanceof JetStreamApiError && codes.includes(error.code);
}
