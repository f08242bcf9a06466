import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const CLI = join(import.meta.dirname, '..', '..', '..', 'scripts', 'openapi-gate.mjs');
const fixture = (name: string) => JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8'));
const roots: string[] = [];

/** A throwaway repository: the 1.0.0 release fixture as baseline, `snapshot` as openapi/openapi.json, and a CHANGELOG. */
function repository(snapshot: unknown, changelog: string): string {
  const root = mkdtempSync(join(tmpdir(), 'openapi-gate-'));
  roots.push(root);
  mkdirSync(join(root, 'openapi', 'releases'), { recursive: true });
  writeFileSync(join(root, 'openapi', 'releases', '1.0.0.json'), JSON.stringify(fixture('release-1.0.0.json')));
  writeFileSync(join(root, 'openapi', 'openapi.json'), JSON.stringify(snapshot));
  writeFileSync(join(root, 'CHANGELOG.md'), changelog);
  return root;
}

function gate(command: 'check' | 'release', root: string) {
  const result = spawnSync(process.execPath, [CLI, command, '--root', root], { encoding: 'utf8' });
  return { status: result.status, output: result.stdout + result.stderr };
}

const withVersion = (document: { info: object }, version: string) => ({ ...document, info: { ...document.info, version } });
const CHANGELOG_1 = '# Changelog\n\n## 1.0.0\n\nFirst release.\n';

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('node scripts/openapi-gate.mjs check', () => {
  it('when the snapshot breaks clients and info.version is not bumped, then it exits 1 listing each change with its pointer', () => {
    const root = repository(fixture('breaking.json'), CHANGELOG_1);

    const { status, output } = gate('check', root);

    expect(status).toBe(1);
    expect(output).toContain('Breaking changes (5):');
    expect(output).toContain('/api/v1/bookings/{id}: the path was removed');
    expect(output).toContain('POST /api/v1/bookings, request body (application/json): new required field `attendee_email`');
    expect(output).toContain('POST /api/v1/bookings, request body (application/json): field `location_type` no longer accepts "phone"');
    expect(output).toContain('GET /api/v1/bookings, response 200 (application/json): field `data[].title` was removed');
    expect(output).toContain(
      'at /paths/~1api~1v1~1bookings/get/responses/200/content/application~1json/schema/properties/data/items/properties/title  (in #/components/schemas/Booking)',
    );
    expect(output).toContain('raise info.version to 2.0.0');
  });

  it('when the breaking snapshot is bumped to 2.0.0 and CHANGELOG.md says why, then it exits 0', () => {
    const root = repository(
      withVersion(fixture('breaking.json'), '2.0.0'),
      `## 2.0.0\n\nBookings need an attendee email; the title is gone.\n\n${CHANGELOG_1}`,
    );

    const { status, output } = gate('check', root);

    expect(status).toBe(0);
    expect(output).toContain('OK: released as a new major version, 2.0.0');
  });

  it('when it is bumped to 2.0.0 without a CHANGELOG section, then it exits 1 naming the missing section', () => {
    const root = repository(withVersion(fixture('breaking.json'), '2.0.0'), CHANGELOG_1);

    const { status, output } = gate('check', root);

    expect(status).toBe(1);
    expect(output).toContain('CHANGELOG.md has no "## 2.0.0" section');
  });

  it('when the snapshot equals the release, then it exits 0', () => {
    expect(gate('check', repository(fixture('release-1.0.0.json'), CHANGELOG_1))).toMatchObject({ status: 0 });
  });
});

describe('node scripts/openapi-gate.mjs release', () => {
  it('when the bumped snapshot is released, then it is written formatted as the new baseline and the check compares with it', () => {
    const root = repository(withVersion(fixture('breaking.json'), '2.0.0'), `## 2.0.0\n\nWhy: see the issue.\n\n${CHANGELOG_1}`);

    const released = gate('release', root);
    const checked = gate('check', root);

    expect(released).toMatchObject({ status: 0, output: expect.stringContaining('Wrote openapi/releases/2.0.0.json') });
    expect(readFileSync(join(root, 'openapi', 'releases', '2.0.0.json'), 'utf8')).toMatch(/^\{\n {2}"openapi": "3\.1\.0",\n[\s\S]*\}\n$/);
    expect(checked).toMatchObject({
      status: 0,
      output: expect.stringContaining('against the last release openapi/releases/2.0.0.json (2.0.0)'),
    });
  });
});
