/**
 * What `uploadMedia` takes: bytes in memory, a Blob/File (`fs.openAsBlob(path)` for a file on disk), a web stream, or
 * any async iterable of bytes (a Node stream such as `fs.createReadStream(path)` is one). Named without Node's types,
 * so the declarations type-check in a browser project too.
 */
export type UploadSource = Blob | Uint8Array | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>;

export interface UploadOptions {
  /** Name sent with the file part. Default: the File's name, else `upload`. */
  filename?: string;
  /** Content type of the file part. Default: the Blob's type, else `application/octet-stream` (the server judges the bytes). */
  contentType?: string;
  altText?: string;
  /** Default: a generated key, reused by the client's retries. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/**
 * The upload as a File. A stream is read into memory first: multipart parts are Blobs, and a buffered body can be
 * sent again by a retry (the API caps uploads at 10 MB by default).
 */
export async function uploadFile(source: UploadSource, options: UploadOptions): Promise<File> {
  const name = options.filename ?? (source instanceof File && source.name !== '' ? source.name : 'upload');
  if (source instanceof Blob) return new File([source], name, { type: options.contentType ?? source.type });
  const type = options.contentType ?? 'application/octet-stream';
  // A copy: a view of a SharedArrayBuffer is no BlobPart.
  if (source instanceof Uint8Array) return new File([source.slice()], name, { type });
  return new File([await blobOf(source)], name, { type });
}

/** A stream's bytes as one Blob, without Node's built-ins (the browser build has none). */
async function blobOf(source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>): Promise<Blob> {
  if (source instanceof ReadableStream) return new Response(source).blob();
  const parts: (Uint8Array<ArrayBuffer> | string)[] = [];
  for await (const chunk of source) parts.push(typeof chunk === 'string' ? chunk : new Uint8Array(chunk));
  return new Blob(parts);
}

/**
 * The client's body serializer: JSON, except a plain object holding a Blob (a `multipart/form-data` operation
 * such as `POST /api/v1/media`), which becomes FormData with its text fields first and its files last.
 */
export function serializeBody(body: unknown): string | FormData {
  if (!isPlainObject(body) || !Object.values(body).some((value) => value instanceof Blob)) return JSON.stringify(body);
  const form = new FormData();
  const entries = Object.entries(body).filter(([, value]) => value !== undefined && value !== null);
  for (const [name, value] of entries.filter(([, v]) => !(v instanceof Blob))) form.append(name, String(value));
  for (const [name, value] of entries) if (value instanceof Blob) form.append(name, value, value instanceof File ? value.name : 'upload');
  return form;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}
