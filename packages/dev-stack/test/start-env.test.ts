import { describe, expect, it } from 'vitest';
import { infraMode, serviceNodeFlags } from '../src/index.ts';
import { formatLogLine } from '../src/log-line.ts';

describe("the stack's own variables", () => {
  it('when SERVICE_NODE_FLAGS is unset or empty, then each service gets the default V8 flags; when set, then its flags alone', () => {
    const defaults = ['--single-threaded-gc', '--no-allocation-site-pretenuring'];
    expect(serviceNodeFlags({})).toEqual(defaults);
    expect(serviceNodeFlags({ SERVICE_NODE_FLAGS: '' })).toEqual(defaults);
    expect(serviceNodeFlags({ SERVICE_NODE_FLAGS: '  --max-semi-space-size=16   --no-opt ' })).toEqual([
      '--max-semi-space-size=16',
      '--no-opt',
    ]);
  });

  it('when START_INFRA or TEST_INFRA names no mode, then the error names the variable and the modes; unset means auto', () => {
    expect(infraMode('START_INFRA', {})).toBe('auto');
    expect(infraMode('TEST_INFRA', { TEST_INFRA: 'embedded' })).toBe('embedded');
    expect(() => infraMode('TEST_INFRA', { TEST_INFRA: 'docker' })).toThrow(
      'TEST_INFRA=docker is not one of auto, local, embedded, containers',
    );
  });
});

describe("npm start's log lines", () => {
  it('when a service logs a request, then the line shows time, level, message, the request and its id', () => {
    const line = JSON.stringify({
      time: '2026-12-02T10:11:12.345Z',
      level: 30,
      msg: 'request completed',
      request_id: 'abcdef0123456789',
      method: 'POST',
      url: '/api/v1/bookings',
      status: 201,
      ms: 12,
    });
    expect(formatLogLine(line)).toBe('10:11:12 INFO  request completed POST /api/v1/bookings 201 12ms req=abcdef01');
  });

  it('when a line is not a JSON object (a stack trace, a bare number), then it is shown as it came', () => {
    expect(formatLogLine('    at main (file.js:1:1)')).toBe('    at main (file.js:1:1)');
    expect(formatLogLine('42')).toBe('42');
  });
});
