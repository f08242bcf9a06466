import { accessSync, constants } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { chromium, type Browser } from 'playwright-core';

/** Where Debian (`apt-get install chromium`) and other distributions put the browser; CHROMIUM_BIN first. */
const CANDIDATES = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'];
const PATHS = ['/usr/bin/chromium', '/usr/lib/chromium/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium'];

/** The Chromium executable: CHROMIUM_BIN, else the first of the usual names on PATH, else the usual paths. */
function chromiumExecutable(): string {
  const fromEnv = process.env.CHROMIUM_BIN;
  if (fromEnv) return onPath(fromEnv) ?? fromEnv;
  for (const name of CANDIDATES) {
    const found = onPath(name);
    if (found) return found;
  }
  const path = PATHS.find(executable);
  if (path) return path;
  throw new Error('Chromium is needed for the browser tests: apt-get install -y chromium, or set CHROMIUM_BIN.');
}

function onPath(name: string): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v "$1"', 'sh', name], { encoding: 'utf8' }).stdout.trim();
  return found !== '' && executable(found) ? found : undefined;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Debian's Chromium driven by playwright-core, headless; no sandbox (CI runs as root). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumExecutable(), headless: true, args: ['--no-sandbox', '--headless=new'] });
}
