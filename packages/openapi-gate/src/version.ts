/** A semantic version as `info.version` and the release file names carry it. */
export interface Version {
  major: number;
  minor: number;
  patch: number;
  text: string;
}

/** `1.2.3` (a `-pre` or `+build` suffix is kept in `text` and ignored in comparisons); undefined when it is not one. */
export function parseVersion(text: unknown): Version | undefined {
  if (typeof text !== 'string') return undefined;
  const match = /^v?(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/.exec(text.trim());
  if (!match) return undefined;
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]), text: text.trim().replace(/^v/, '') };
}

export function compareVersions(a: Version, b: Version): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}
