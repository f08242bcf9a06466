import { describe, expect, it } from 'vitest';
import { errorBodySchema } from '@app/contracts';
import { preparedForTests, startedForTests } from '@app/service-testing';
import { startE2eStack } from '../support/e2e-stack.js';
import { createOrganization } from '../support/organization.js';

/** A multipart upload of `bytes` bytes, with the fields given first (as a form would send them). */
function upload(bytes: number, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([new Uint8Array(bytes).fill(7)], { type: 'image/png' }), 'big.png');
  return form;
}

/**
 * Refusals decided before an upload's body has arrived reach a client that is still sending it, with Node's own
 * fetch (undici), which loses the answer to EPIPE when the server closes the socket under it. The body is read and
 * discarded before answering, so the connection stays open (`connection: keep-alive`): a closing answer is what
 * lost the refusal, every time for the headers and now and then for the whole answer. Each case runs five times.
 */
describe('early refusals of uploads, with Node fetch', () => {
  const stack = startedForTests(startE2eStack, { timeout: 120_000 });
  const organization = preparedForTests(() => createOrganization(stack, 'Uploads'));
  const post = (form: FormData, authorization = `Bearer ${organization.key}`) =>
    fetch(`${stack.gatewayUrl}/api/v1/media`, { method: 'POST', headers: { authorization }, body: form });

  it('when an upload of 9 MB has a wrong key, then the 401 arrives every time', async () => {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await post(upload(9_000_000), 'Bearer sk_wrongwrongwrongwrongwrongwrong');
      expect(response.status).toBe(401);
      expect(response.headers.get('connection')).toBe('keep-alive');
      expect(errorBodySchema.parse(await response.json()).code).toBe('UNAUTHORIZED');
    }
  });

  it('when an upload is over the limit, then the 413 arrives every time', async () => {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await post(upload(30_000_000));
      expect(response.status).toBe(413);
      expect(response.headers.get('connection')).toBe('keep-alive');
      expect(errorBodySchema.parse(await response.json()).code).toBe('PAYLOAD_TOO_LARGE');
    }
  });

  it('when an upload has an alt_text of 10,000 characters before its file, then the 400 arrives every time', async () => {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await post(upload(9_000_000, { alt_text: 'a'.repeat(10_000) }));
      expect(response.status).toBe(400);
      expect(response.headers.get('connection')).toBe('keep-alive');
      const body = errorBodySchema.parse(await response.json());
      expect(body).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.stringMatching(/^alt_text must be at most \d+ characters$/) });
    }
  });
});
