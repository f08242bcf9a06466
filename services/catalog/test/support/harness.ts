import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { ApiKeyType } from '@app/contracts';
import { keyKindHeaders, organizationHeaders, png, startTestService, type RunningService } from '@app/service-testing';
import { configSchema, type Config } from '../../src/config.js';
import { service } from '../../src/service.js';

export const PUBLIC_BASE_URL = 'https://shop.example.test';

/** The catalog on the run's database and NATS, with media in a fresh temporary folder. */
export async function startCatalog(
  env: Record<string, string> = {},
): Promise<{ running: RunningService<Config>; mediaDir: string; stop(): Promise<void> }> {
  const mediaDir = mkdtempSync(join(tmpdir(), 'catalog-media-'));
  const running = await startTestService(service, configSchema, { MEDIA_DIR: mediaDir, PUBLIC_BASE_URL, ...env });
  return {
    running,
    mediaDir,
    async stop() {
      await running.stop();
      rmSync(mediaDir, { recursive: true, force: true });
    },
  };
}

/** Files (not folders) in a media folder. */
export function storedFiles(mediaDir: string): string[] {
  return readdirSync(mediaDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name)
    .sort();
}

/** A client of one organization, talking to the service the way the gateway does. */
export class Client {
  readonly headers: Record<string, string>;

  /** `keyType`: call through a key of that kind (the caller assertion names it, as the gateway's does); a secret key by default. */
  constructor(
    private readonly running: RunningService<Config>,
    readonly organizationId: string = randomUUID(),
    keyType?: ApiKeyType,
  ) {
    this.headers = keyType ? keyKindHeaders(organizationId, keyType) : organizationHeaders(organizationId);
  }

  request(method: InjectOptions['method'], url: string, payload?: unknown): Promise<LightMyRequestResponse> {
    return this.running.app.inject({
      method,
      url,
      headers: this.headers,
      ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
    });
  }

  get = (url: string) => this.request('GET', url);
  post = (url: string, body?: unknown) => this.request('POST', url, body);
  patch = (url: string, body?: unknown) => this.request('PATCH', url, body);
  delete = (url: string) => this.request('DELETE', url);

  /** POST /api/v1/media with `file` (and `alt_text` when given) as multipart/form-data. */
  upload(bytes: Buffer, filename: string, options: { altText?: string; type?: string; altTextFirst?: boolean } = {}) {
    const form = new FormData();
    if (options.altText !== undefined && options.altTextFirst) form.append('alt_text', options.altText);
    form.append('file', new Blob([new Uint8Array(bytes)], { type: options.type ?? 'application/octet-stream' }), filename);
    if (options.altText !== undefined && !options.altTextFirst) form.append('alt_text', options.altText);
    return this.running.app.inject({ method: 'POST', url: '/api/v1/media', headers: this.headers, payload: form });
  }

  /** Uploads a small PNG and returns the media file record. */
  async uploadImage(name = 'image.png'): Promise<{ id: string; url: string; alt_text: string | null }> {
    const response = await this.upload(png(2, 2), name);
    if (response.statusCode !== 201) throw new Error(`upload failed: ${response.statusCode} ${response.body}`);
    return response.json().data;
  }

  /** Creates a product and returns its record. */
  async product(body: Record<string, unknown> = {}): Promise<Record<string, unknown> & { id: string; slug: string }> {
    const response = await this.post('/api/v1/products', { name: `Product ${randomUUID().slice(0, 8)}`, price: 10, ...body });
    if (response.statusCode !== 201) throw new Error(`create failed: ${response.statusCode} ${response.body}`);
    return response.json().data;
  }
}

/** The path of a public media URL (the service sees it without the gateway's origin). */
export function pathOf(url: string): string {
  return new URL(url).pathname;
}

/** The item at `index`, which the test knows is there. */
export function nth<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`no item at ${index}`);
  return item;
}
