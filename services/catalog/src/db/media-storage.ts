import type { Readable } from 'node:stream';

/** A stored object's bytes and length, ready to be streamed to a client. */
export interface StoredObject {
  body: Readable;
  size: number;
}

/**
 * Where uploaded bytes live. Keys are flat, opaque names chosen by the catalog (`<token>.<ext>`), so an
 * S3-compatible implementation can map them to object keys one to one.
 */
export interface MediaStorage {
  /**
   * Streams `body` into `key`. The object becomes visible only when the stream ended without error;
   * on any error (including one raised by a transform in `body`'s pipeline) nothing is left behind.
   */
  put(key: string, body: Readable): Promise<void>;
  /** The object, or null when there is none. */
  get(key: string): Promise<StoredObject | null>;
  /** Removes the object; removing a missing object is not an error. */
  delete(key: string): Promise<void>;
}
