import { describe, expect, it } from 'vitest';
import { changelogEntry } from '../src/changelog.ts';
import { evaluateGate } from '../src/gate.ts';
import { apiDocument } from './documents.ts';

const ok = { '200': { description: 'OK' } };
const release = apiDocument({ version: '1.4.2', paths: { '/a': { get: { responses: ok } }, '/b': { get: { responses: ok } } } });
const compatible = (version: string) =>
  apiDocument({ version, paths: { '/a': { get: { responses: ok } }, '/b': { get: { responses: ok } }, '/c': { get: { responses: ok } } } });
const breaking = (version: string) => apiDocument({ version, paths: { '/a': { get: { responses: ok } } } });

function gate(snapshot: unknown, changelog = '') {
  return evaluateGate({
    release: { name: 'openapi/releases/1.4.2.json', document: release },
    snapshot: { name: 'openapi/openapi.json', document: snapshot },
    changelog: { name: 'CHANGELOG.md', text: changelog },
  });
}

describe('evaluateGate', () => {
  it('when nothing breaks and the version stays, then it passes', () => {
    expect(gate(compatible('1.4.2'))).toMatchObject({ ok: true, breaking: [], problems: [] });
  });

  it('when something breaks and the version stays, then it fails, asking for the next major', () => {
    const verdict = gate(breaking('1.4.2'));

    expect(verdict.ok).toBe(false);
    expect(verdict.breaking).toMatchObject([{ kind: 'path-removed', location: '/b' }]);
    expect(verdict.problems).toEqual([expect.stringContaining('1 breaking change since release 1.4.2 needs a new major version')]);
    expect(verdict.problems[0]).toContain('raise info.version to 2.0.0');
  });

  it('when something breaks under a minor bump with a CHANGELOG section, then it still fails', () => {
    expect(gate(breaking('1.5.0'), '## 1.5.0\n\nRemoved /b.\n').ok).toBe(false);
  });

  it('when something breaks under a major bump with a CHANGELOG section that says why, then it passes', () => {
    const verdict = gate(
      breaking('2.0.0'),
      '# Changelog\n\n## [2.0.0] - 2026-11-25\n\n/b is gone: nobody called it.\n\n## 1.4.2\n\nOlder.\n',
    );

    expect(verdict).toMatchObject({ ok: true, from: '1.4.2', to: '2.0.0', problems: [] });
    expect(verdict.breaking).toHaveLength(1);
  });

  it('when the major is bumped but the CHANGELOG section is missing or empty, then it fails naming the section', () => {
    for (const changelog of ['', '## 2.0.0\n\n### Breaking\n\n## 1.4.2\n\nOlder.\n']) {
      expect(gate(breaking('2.0.0'), changelog).problems).toEqual([expect.stringContaining('CHANGELOG.md has no "## 2.0.0" section')]);
    }
  });

  it('when the version changes without breaking anything and without a CHANGELOG section, then it fails', () => {
    expect(gate(compatible('1.5.0')).ok).toBe(false);
    expect(gate(compatible('1.5.0'), '## 1.5.0\n\nAdded /c.\n').ok).toBe(true);
  });

  it('when the version goes below the release or is not a version, then it fails', () => {
    expect(gate(compatible('1.4.1'), '## 1.4.1\n\nOops.\n').problems).toEqual([expect.stringContaining('lower than the last release')]);
    expect(gate(compatible('latest')).problems).toEqual(['openapi/openapi.json: info.version is not a version like 1.2.3']);
  });
});

describe('changelogEntry', () => {
  const markdown = '# Changelog\n\n## v2.0.0\n\n### Breaking\n\n- dropped /b\n\n## 1.0.0\n\nFirst.\n';

  it('when the version has a section with text, then its text is returned up to the next section', () => {
    expect(changelogEntry(markdown, '2.0.0')).toBe('### Breaking\n\n- dropped /b');
    expect(changelogEntry(markdown, '1.0.0')).toBe('First.');
  });

  it('when the version has no section, then undefined', () => {
    expect(changelogEntry(markdown, '3.0.0')).toBeUndefined();
    expect(changelogEntry(markdown, '2.0.00')).toBeUndefined();
  });
});
