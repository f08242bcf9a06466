import { isUtf8 } from 'node:buffer';
import type { FastifyInstance } from 'fastify';
import { invalidInput } from '../errors.js';

/**
 * JSON bodies are read as bytes and refused unless they are UTF-8 (RFC 8259): Fastify's own parser decodes them as a
 * string first, which turns an invalid byte sequence into U+FFFD, so what was stored would not be what the client sent.
 * The parsing itself stays Fastify's (prototype poisoning refused as before).
 */
export function useStrictJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body: Buffer, done) => {
    if (!isUtf8(body)) {
      done(invalidInput('body', 'body must be valid UTF-8'), undefined);
      return;
    }
    void parse(request, body.toString('utf8'), done);
  });
}
