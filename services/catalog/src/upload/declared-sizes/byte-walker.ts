/**
 * A format's header walk written as straight-line code over a byte stream that arrives in chunks.
 * A walk is a generator: it yields what it needs next and receives those bytes back; `ByteWalker` feeds
 * it the upload's chunks as they pass. Memory stays at the few bytes of one read, whatever the file's
 * size, and nothing is read twice. The two demands that can repeat for every couple of bytes of a file
 * (GIF data sub-blocks, JPEG entropy-coded data) are walked here in a tight loop rather than one
 * generator step per block (10 MB of 1-byte sub-blocks: 9 s that way, 60 ms this one). What is left is
 * a generator step per chunk, segment, box or frame: a file made of nothing but the smallest of those
 * costs up to about 0.1 s per MB (JPEG's 4-byte segments), a real image next to nothing.
 */
export type Demand =
  /** The next n bytes (n ≤ MAX_READ). */
  | { kind: 'read'; bytes: number }
  /** Past the next n bytes (an empty buffer comes back). */
  | { kind: 'skip'; bytes: number }
  /** Past a chain of GIF data sub-blocks (a length byte, that many bytes, … up to a zero length). */
  | { kind: 'subBlocks' }
  /** Up to the next JPEG marker (0xFF then a byte other than 0x00 stuffing, a fill 0xFF or RST0–7); its byte comes back. */
  | { kind: 'marker' };

/** A walk: yields demands, receives the bytes of each. */
export type Walk = Generator<Demand, void, Buffer>;

/** The biggest read a walk may ask for: walks read fixed-size headers, never payloads. */
const MAX_READ = 64;
/** One demand object per read size, since a crafted file can make a walk read a few bytes millions of times. */
const READS: Demand[] = Array.from({ length: MAX_READ + 1 }, (_, bytes) => ({ kind: 'read', bytes }));

export function read(bytes: number): Demand {
  const demand = READS[bytes];
  if (bytes < 1 || !demand) throw new RangeError(`a walk reads 1 to ${MAX_READ} bytes at once`);
  return demand;
}

export function skip(bytes: number): Demand {
  return { kind: 'skip', bytes: Math.max(0, bytes) };
}

export const SUB_BLOCKS: Demand = { kind: 'subBlocks' };
export const MARKER: Demand = { kind: 'marker' };

/** A four-character chunk or box type as the big-endian number it is in the file, to compare without making strings. */
export function fourcc(type: string): number {
  return Buffer.from(type, 'latin1').readUInt32BE(0);
}

const NOTHING = Buffer.alloc(0);

export class ByteWalker {
  private demand: Demand | undefined;
  private readonly pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Bytes left to skip (skip demand) or left in the current sub-block (subBlocks demand). */
  private skipLeft = 0;
  /** The marker demand saw a 0xFF and waits for the byte after it. */
  private afterFF = false;

  constructor(private readonly walk: Walk) {
    this.advance(NOTHING);
  }

  /** Runs the walk over the next chunk; whatever the walk throws is thrown here. */
  push(chunk: Buffer): void {
    let offset = 0;
    while (this.demand && offset < chunk.length) {
      const demand = this.demand;
      switch (demand.kind) {
        case 'skip': {
          const take = Math.min(this.skipLeft, chunk.length - offset);
          offset += take;
          this.skipLeft -= take;
          if (this.skipLeft === 0) this.advance(NOTHING);
          break;
        }
        case 'read':
          offset = this.read(demand.bytes, chunk, offset);
          break;
        case 'subBlocks':
          offset = this.subBlocks(chunk, offset);
          break;
        case 'marker':
          offset = this.marker(chunk, offset);
          break;
      }
    }
  }

  private read(bytes: number, chunk: Buffer, offset: number): number {
    if (this.pendingBytes === 0 && chunk.length - offset >= bytes) {
      this.advance(chunk.subarray(offset, offset + bytes));
      return offset + bytes;
    }
    const take = Math.min(bytes - this.pendingBytes, chunk.length - offset);
    this.pending.push(chunk.subarray(offset, offset + take));
    this.pendingBytes += take;
    if (this.pendingBytes === bytes) {
      const whole = Buffer.concat(this.pending);
      this.pending.length = 0;
      this.pendingBytes = 0;
      this.advance(whole);
    }
    return offset + take;
  }

  private subBlocks(chunk: Buffer, start: number): number {
    let offset = start;
    while (offset < chunk.length) {
      if (this.skipLeft > 0) {
        const take = Math.min(this.skipLeft, chunk.length - offset);
        offset += take;
        this.skipLeft -= take;
        continue;
      }
      const length = chunk[offset++] ?? 0;
      if (length === 0) {
        this.advance(NOTHING);
        return offset;
      }
      this.skipLeft = length;
    }
    return offset;
  }

  private marker(chunk: Buffer, start: number): number {
    let offset = start;
    while (offset < chunk.length) {
      if (!this.afterFF) {
        const at = chunk.indexOf(0xff, offset);
        if (at === -1) return chunk.length;
        offset = at + 1;
        this.afterFF = true;
        continue;
      }
      const byte = chunk[offset++] ?? 0;
      if (byte === 0xff) continue; // fill byte: still after a 0xFF
      this.afterFF = false;
      if (byte === 0x00 || (byte >= 0xd0 && byte <= 0xd7)) continue; // stuffing, restart marker
      this.advance(chunk.subarray(offset - 1, offset));
      return offset;
    }
    return offset;
  }

  private advance(bytes: Buffer): void {
    let next = this.walk.next(bytes);
    while (!next.done && next.value.kind === 'skip' && next.value.bytes === 0) next = this.walk.next(NOTHING);
    this.demand = next.done ? undefined : next.value;
    this.skipLeft = this.demand?.kind === 'skip' ? this.demand.bytes : 0;
  }
}
