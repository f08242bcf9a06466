import { describe, expect, it } from 'vitest';
import { ConfigError, baseConfigSchema, loadConfig } from '../src/index.js';

describe('loadConfig', () => {
  it('when required variables are missing or bad, then it fails naming each of them', () => {
    const error = (() => {
      try {
        loadConfig(baseConfigSchema, { DATABASE_URL: 'not a url', NATS_PREFIX: 'has.dots' });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/PORT/);
    expect(message).toMatch(/DATABASE_URL/);
    expect(message).toMatch(/NATS_PREFIX/);
  });

  it('when only PORT is given, then the local defaults apply', () => {
    const config = loadConfig(baseConfigSchema, { PORT: '3001' });
    expect(config).toMatchObject({
      PORT: 3001,
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/scheduling_shop',
      NATS_URL: 'nats://127.0.0.1:4222',
      REQUEST_TIMEOUT_MS: 2000,
    });
  });
});
