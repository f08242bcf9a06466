import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, baseConfigSchema, gatewayPortVariable, loadConfig, natsCredentials, streamLimitsOf } from '../src/index.js';

describe('loadConfig', () => {
  it("when PUBLIC_BASE_URL is unset and compose's GATEWAY_PORT is given, then the public address is made from it; an explicit one wins", () => {
    const schema = baseConfigSchema.safeExtend({
      PUBLIC_BASE_URL: z.url().default('http://127.0.0.1:3000'),
      GATEWAY_PORT: gatewayPortVariable,
    });
    const withEnv = (env: Record<string, string>) => loadConfig(schema, { NODE_ENV: 'test', PORT: '3003', ...env }).PUBLIC_BASE_URL;
    expect(withEnv({ GATEWAY_PORT: '3300', PUBLIC_BASE_URL: '' })).toBe('http://localhost:3300');
    expect(withEnv({ GATEWAY_PORT: '127.0.0.1:3300' })).toBe('http://127.0.0.1:3300');
    expect(withEnv({ GATEWAY_PORT: '0.0.0.0:8080' })).toBe('http://localhost:8080');
    // compose picks the port itself: nobody here knows it, so the default stays.
    expect(withEnv({ GATEWAY_PORT: '127.0.0.1:' })).toBe('http://127.0.0.1:3000');
    expect(withEnv({ GATEWAY_PORT: '3300', PUBLIC_BASE_URL: 'https://shop.example.com' })).toBe('https://shop.example.com');
  });

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

  it('when only PORT is given (in test), then the local defaults apply', () => {
    const config = loadConfig(baseConfigSchema, { NODE_ENV: 'test', PORT: '3001' });
    expect(config).toMatchObject({
      PORT: 3001,
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/scheduling_shop',
      NATS_URL: 'nats://127.0.0.1:4222',
      REQUEST_TIMEOUT_MS: 2000,
    });
  });

  it('when a variable is set to the empty string, then it counts as unset (compose passes unset ones through as "")', () => {
    const config = loadConfig(baseConfigSchema, { NODE_ENV: 'test', PORT: '3001', DATABASE_URL: '', NATS_PREFIX: '' });
    expect(config.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/scheduling_shop');
  });

  it('when NAME_FILE names a file, then NAME is read from it without its trailing newline', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'config-')), 'database_url');
    writeFileSync(file, 'postgres://app:s3cret@db:5432/shop\n');
    const config = loadConfig(baseConfigSchema, { NODE_ENV: 'test', PORT: '3001', DATABASE_URL_FILE: file });
    expect(config.DATABASE_URL).toBe('postgres://app:s3cret@db:5432/shop');
  });

  it("when a *_FILE variable names no variable of the schema (another tool's), then it is left alone", () => {
    const config = loadConfig(baseConfigSchema, { NODE_ENV: 'test', PORT: '3001', TF_CLI_CONFIG_FILE: '/nonexistent/.terraformrc' });
    expect(config.PORT).toBe(3001);
  });

  it('when a schema transforms its object, then NAME_FILE still reaches NAME', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'config-')), 'token');
    writeFileSync(file, 'from-a-file\n');
    const schema = baseConfigSchema.extend({ TOKEN: z.string() }).transform((config) => ({ ...config, token: config.TOKEN }));
    expect(loadConfig(schema, { NODE_ENV: 'test', PORT: '1', TOKEN_FILE: file }).token).toBe('from-a-file');
  });

  it('when NAME_FILE cannot be read, or NAME is set as well, then it fails naming the variable', () => {
    const message = (env: NodeJS.ProcessEnv) => {
      try {
        loadConfig(baseConfigSchema, env);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error('loadConfig accepted it');
    };
    expect(message({ NODE_ENV: 'test', PORT: '1', DATABASE_URL_FILE: '/nonexistent/secret' })).toMatch(
      /DATABASE_URL_FILE: cannot read \/nonexistent\/secret \(ENOENT\)/,
    );
    const file = join(mkdtempSync(join(tmpdir(), 'config-')), 'url');
    writeFileSync(file, 'postgres://a@b/c');
    expect(message({ NODE_ENV: 'test', PORT: '1', DATABASE_URL: 'postgres://x@y/z', DATABASE_URL_FILE: file })).toMatch(
      /DATABASE_URL is set as well/,
    );
  });

  it('when NATS_USER and NATS_PASSWORD(_FILE) are set, then they are the NATS credentials; one without the other is refused', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'nats-secret-')), 'nats_password');
    writeFileSync(file, 'a-long-nats-password-0123\n');
    const config = loadConfig(baseConfigSchema, { NODE_ENV: 'test', PORT: '1', NATS_USER: 'bookings', NATS_PASSWORD_FILE: file });
    expect(natsCredentials(config)).toEqual({ user: 'bookings', password: 'a-long-nats-password-0123' });
    expect(natsCredentials(loadConfig(baseConfigSchema, { NODE_ENV: 'test', PORT: '1' }))).toBeUndefined();
    expect(() => natsCredentials(loadConfig(baseConfigSchema, { NODE_ENV: 'test', PORT: '1', NATS_USER: 'bookings' }))).toThrow(
      /NATS_PASSWORD: is required/,
    );
    // REPLACE_ME, the placeholder of the Kubernetes base, is too short to pass for a password.
    expect(() => loadConfig(baseConfigSchema, { NODE_ENV: 'test', PORT: '1', NATS_USER: 'bookings', NATS_PASSWORD: 'REPLACE_ME' })).toThrow(
      /NATS_PASSWORD/,
    );
  });

  it('when NATS_STREAM_REPLICAS is 3, then the streams are asked for 3 replicas; beyond 5 or below 1 it is refused', () => {
    expect(streamLimitsOf(loadConfig(baseConfigSchema, { NODE_ENV: 'test', PORT: '1', NATS_STREAM_REPLICAS: '3' })).replicas).toBe(3);
    for (const replicas of ['0', '6', 'three']) {
      expect(() => loadConfig(baseConfigSchema, { NODE_ENV: 'test', PORT: '1', NATS_STREAM_REPLICAS: replicas })).toThrow(
        /NATS_STREAM_REPLICAS/,
      );
    }
  });

  it('when retention is not configured, then streams keep 7 days and 1 GiB, dead letters 30 days and 128 MiB, published outbox rows 24 h and inbox rows 8 days', () => {
    const config = loadConfig(baseConfigSchema, { NODE_ENV: 'test', PORT: '1' });
    expect(config).toMatchObject({
      NATS_STREAM_MAX_AGE_HOURS: 168,
      NATS_STREAM_MAX_BYTES: 1024 ** 3,
      NATS_DLQ_MAX_AGE_HOURS: 720,
      NATS_DLQ_MAX_BYTES: 128 * 1024 ** 2,
      OUTBOX_RETENTION_HOURS: 24,
      INBOX_RETENTION_HOURS: 192,
    });
    expect(streamLimitsOf(config)).toEqual({
      maxAgeMs: 7 * 24 * 3_600_000,
      maxBytes: 1024 ** 3,
      replicas: 1,
      deadLetterMaxAgeMs: 30 * 24 * 3_600_000,
      deadLetterMaxBytes: 128 * 1024 ** 2,
    });
  });

  it('when the inbox would forget an event before the stream does, then the config is refused with the reason', () => {
    const refused = [
      { NODE_ENV: 'test', PORT: '1', INBOX_RETENTION_HOURS: '168' }, // equal to the stream's default max_age: the duplicate window is not covered
      { NODE_ENV: 'test', PORT: '1', NATS_STREAM_MAX_AGE_HOURS: '336' }, // a longer stream with the default inbox retention
    ];
    for (const env of refused) {
      expect(() => loadConfig(baseConfigSchema, env)).toThrow(
        /INBOX_RETENTION_HOURS: must be longer than NATS_STREAM_MAX_AGE_HOURS \(\d+\) plus JetStream's 2-minute duplicate window: an event redelivered after its inbox row was swept would be applied twice/,
      );
    }
    expect(
      loadConfig(baseConfigSchema, { NODE_ENV: 'test', PORT: '1', NATS_STREAM_MAX_AGE_HOURS: '336', INBOX_RETENTION_HOURS: '337' }),
    ).toMatchObject({
      INBOX_RETENTION_HOURS: 337,
    });
  });

  it("when a service extends the kit's schema, then the retention rule still holds", () => {
    const serviceSchema = baseConfigSchema.safeExtend({ PORT: z.coerce.number().int().default(3001) });
    expect(() => loadConfig(serviceSchema, { INBOX_RETENTION_HOURS: '24' })).toThrow(/INBOX_RETENTION_HOURS: must be longer/);
    expect(loadConfig(serviceSchema, { NODE_ENV: 'test' }).PORT).toBe(3001);
  });
});

describe('loadConfig: /metrics in production', () => {
  const TOKEN = 'metrics-token-0123456789';

  it.each([
    ['production', 'production'],
    ['unset (counts as production)', undefined],
  ])('when NODE_ENV is %s and neither METRICS_TOKEN nor METRICS_PORT is set, then it refuses naming both', (_case, nodeEnv) => {
    expect(() => loadConfig(baseConfigSchema, { NODE_ENV: nodeEnv, PORT: '1' })).toThrow(
      /METRICS_TOKEN: METRICS_TOKEN or METRICS_PORT is required unless NODE_ENV=development \(or test\)/,
    );
  });

  it.each([
    ['METRICS_TOKEN', { METRICS_TOKEN: TOKEN }, { METRICS_TOKEN: TOKEN }],
    ['METRICS_PORT', { METRICS_PORT: '9464' }, { METRICS_PORT: 9464 }],
  ])('when NODE_ENV is production and %s is set, then it is accepted', (_name, metrics, parsed) => {
    expect(loadConfig(baseConfigSchema, { NODE_ENV: 'production', PORT: '1', ...metrics })).toMatchObject(parsed);
  });

  it.each(['development', 'test'])('when NODE_ENV is %s, then /metrics may go without either', (nodeEnv) => {
    expect(loadConfig(baseConfigSchema, { NODE_ENV: nodeEnv, PORT: '1' }).METRICS_TOKEN).toBeUndefined();
  });

  it("when a service extends the kit's schema, then the rule still holds", () => {
    const serviceSchema = baseConfigSchema.safeExtend({ PORT: z.coerce.number().int().default(3001) });
    expect(() => loadConfig(serviceSchema, { NODE_ENV: 'production' })).toThrow(/METRICS_TOKEN or METRICS_PORT is required/);
  });
});
