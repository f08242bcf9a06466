import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, baseConfigSchema, loadConfig, natsCredentials } from '../src/index.js';

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

  it('when a variable is set to the empty string, then it counts as unset (compose passes unset ones through as "")', () => {
    const config = loadConfig(baseConfigSchema, { PORT: '3001', DATABASE_URL: '', NATS_PREFIX: '' });
    expect(config.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/scheduling_shop');
  });

  it('when NAME_FILE names a file, then NAME is read from it without its trailing newline', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'config-')), 'database_url');
    writeFileSync(file, 'postgres://app:s3cret@db:5432/shop\n');
    const config = loadConfig(baseConfigSchema, { PORT: '3001', DATABASE_URL_FILE: file });
    expect(config.DATABASE_URL).toBe('postgres://app:s3cret@db:5432/shop');
  });

  it("when a *_FILE variable names no variable of the schema (another tool's), then it is left alone", () => {
    const config = loadConfig(baseConfigSchema, { PORT: '3001', TF_CLI_CONFIG_FILE: '/nonexistent/.terraformrc' });
    expect(config.PORT).toBe(3001);
  });

  it('when a schema transforms its object, then NAME_FILE still reaches NAME', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'config-')), 'token');
    writeFileSync(file, 'from-a-file\n');
    const schema = baseConfigSchema.extend({ TOKEN: z.string() }).transform((config) => ({ ...config, token: config.TOKEN }));
    expect(loadConfig(schema, { PORT: '1', TOKEN_FILE: file }).token).toBe('from-a-file');
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
    expect(message({ PORT: '1', DATABASE_URL_FILE: '/nonexistent/secret' })).toMatch(
      /DATABASE_URL_FILE: cannot read \/nonexistent\/secret \(ENOENT\)/,
    );
    const file = join(mkdtempSync(join(tmpdir(), 'config-')), 'url');
    writeFileSync(file, 'postgres://a@b/c');
    expect(message({ PORT: '1', DATABASE_URL: 'postgres://x@y/z', DATABASE_URL_FILE: file })).toMatch(/DATABASE_URL is set as well/);
  });

  it('when NATS_USER and NATS_PASSWORD(_FILE) are set, then they are the NATS credentials; one without the other is refused', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'nats-secret-')), 'nats_password');
    writeFileSync(file, 'a-long-nats-password-0123\n');
    const config = loadConfig(baseConfigSchema, { PORT: '1', NATS_USER: 'bookings', NATS_PASSWORD_FILE: file });
    expect(natsCredentials(config)).toEqual({ user: 'bookings', password: 'a-long-nats-password-0123' });
    expect(natsCredentials(loadConfig(baseConfigSchema, { PORT: '1' }))).toBeUndefined();
    expect(() => natsCredentials(loadConfig(baseConfigSchema, { PORT: '1', NATS_USER: 'bookings' }))).toThrow(/NATS_PASSWORD: is required/);
    // REPLACE_ME, the placeholder of the Kubernetes base, is too short to pass for a password.
    expect(() => loadConfig(baseConfigSchema, { PORT: '1', NATS_USER: 'bookings', NATS_PASSWORD: 'REPLACE_ME' })).toThrow(/NATS_PASSWORD/);
  });
});
