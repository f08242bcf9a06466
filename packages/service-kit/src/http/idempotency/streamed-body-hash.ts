import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { Busboy, type BusboyHeaders } from '@fastify/busboy';

const PARSER_SETTLE_MS = 1000;

interface Part {
  name: string;
  entry: string;
}

/** True for a body the route reads as a stream (a multipart upload): it is not parsed before the handler runs. */
export function isStreamedBody(request: { headers: Record<string, unknown> }): boolean {
  const type = request.headers['content-type'];
  return typeof type === 'string' && /^multipart\//i.test(type);
}

/**
 * The fingerprint of a multipart body, taken while the route reads it (nothing is buffered): each part's field name,
 * the file name of a file, and the SHA-256 of its bytes or value, with the parts in field-name order. So two uploads
 * of the same file and fields compare equal whatever boundary, part headers (content types) or field order the
 * client chose; another file, file name or `alt_text` is another body. A multipart body without a boundary is
 * fingerprinted by its raw bytes; one that breaks off or does not parse has no fingerprint (its answer is not kept).
 *
 * It listens beside the route's own parser: the stream is paused first, so attaching the listener does not start
 * the flow before the route pipes it (both then see every chunk).
 */
export class StreamedBodyHash {
  private readonly digest: Promise<string | null>;
  private ended = false;

  constructor(private readonly raw: IncomingMessage) {
    raw.pause();
    this.digest = new Promise((resolve) => {
      raw.once('end', () => (this.ended = true));
      // A client that goes away mid-body leaves no fingerprint.
      raw.once('close', () => void (this.ended || resolve(null)));
      raw.once('error', () => resolve(null));
      listen(raw, resolve);
    });
  }

  /** The fingerprint when the whole body was read (by the route), else null (it refused the body early). */
  async ifComplete(): Promise<string | null> {
    if (!this.ended) return null;
    // The parser settles right after the end; one that never does (a malformed body) leaves no fingerprint.
    return Promise.race([this.digest, sleep(PARSER_SETTLE_MS, null, { ref: false })]);
  }

  /** Reads the body to its end (the route will not: a first response is replayed instead) and gives its fingerprint. */
  drain(): Promise<string | null> {
    this.raw.resume();
    return this.digest;
  }
}

function listen(raw: IncomingMessage, resolve: (digest: string | null) => void): void {
  let parser: ReturnType<typeof Busboy>;
  try {
    parser = Busboy({ headers: raw.headers as BusboyHeaders });
  } catch {
    const whole = createHash('sha256');
    raw.on('data', (chunk: Buffer) => whole.update(chunk));
    raw.once('end', () => resolve(`raw:${whole.digest('hex')}`));
    return;
  }
  const parts: Part[] = [];
  let openFiles = 0;
  let finished = false;
  const settle = () => {
    if (!finished || openFiles > 0) return;
    // Stable: parts of one name keep the order they were sent in.
    const entries = parts.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map((part) => part.entry);
    resolve(createHash('sha256').update(JSON.stringify(entries)).digest('hex'));
  };
  parser.on('field', (name, value) => parts.push({ name, entry: `${name}=${sha256(value)}` }));
  parser.on('file', (name, stream, filename) => {
    openFiles += 1;
    const bytes = createHash('sha256');
    stream.on('data', (chunk: Buffer) => bytes.update(chunk));
    stream.once('end', () => {
      parts.push({ name, entry: `${name}:${JSON.stringify(filename)}=${bytes.digest('hex')}` });
      openFiles -= 1;
      settle();
    });
  });
  parser.once('finish', () => {
    finished = true;
    settle();
  });
  parser.once('error', () => resolve(null));
  raw.on('data', (chunk: Buffer) => parser.write(chunk));
  raw.once('end', () => parser.end());
}

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
