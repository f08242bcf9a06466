import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2eStack, type E2eStack } from '../support/e2e-stack.js';
import { organizationWithSchedule } from '../support/organization.js';

const CHROMIUM = process.env.CHROMIUM_BIN ?? 'chromium';

/** A booking page on another origin: it reads the public slots, then tries the keyed API, and writes what happened. */
function bookingPage(gatewayUrl: string, scheduleId: string, key: string): string {
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  return `<!doctype html><title>booking page</title><pre id="out">pending</pre><script>
    const out = [];
    const say = (line) => { out.push(line); document.getElementById('out').textContent = out.join('\\n'); };
    (async () => {
      try {
        const slots = await fetch('${gatewayUrl}/api/bookings/slots?scheduleId=${scheduleId}&startDate=${tomorrow}&endDate=${tomorrow}');
        const body = await slots.json();
        say('slots ' + slots.status + ' days=' + body.days.length + ' request-id=' + (slots.headers.get('x-request-id') ? 'readable' : 'hidden'));
      } catch (error) { say('slots failed ' + error); }
      try {
        const keyed = await fetch('${gatewayUrl}/api/v1/bookings', { headers: { authorization: 'Bearer ${key}' } });
        say('keyed ' + keyed.status);
      } catch (error) { say('keyed blocked ' + error.name); }
      say('done');
    })();
  </script>`;
}

/**
 * CORS seen by a real browser (Debian's Chromium, headless): a page served from another origin reads the public
 * slots, and its call to /api/v1 is blocked, since that origin is not listed in CORS_ORIGINS.
 */
describe('a booking page on another origin, in headless Chromium', () => {
  let stack: E2eStack;
  let page: Server;
  let pageUrl: string;
  const profile = mkdtempSync(join(tmpdir(), 'chromium-'));

  beforeAll(async () => {
    const version = spawnSync(CHROMIUM, ['--version'], { encoding: 'utf8' });
    if (version.status !== 0) {
      throw new Error(`Chromium is needed (${CHROMIUM} did not run): apt-get install chromium, or set CHROMIUM_BIN.`);
    }
    stack = await startE2eStack();
    const { key, scheduleId } = await organizationWithSchedule(stack);
    const html = bookingPage(stack.gatewayUrl, scheduleId, key);
    page = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(html));
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await new Promise((resolve) => page?.close(resolve));
    rmSync(profile, { recursive: true, force: true });
  });

  it('when the page reads the public slots, then it gets them; when it calls /api/v1, then the browser blocks it', async () => {
    // Not spawnSync: the page is served by this process, which must keep running while Chromium loads it.
    const { stdout: dom } = await promisify(execFile)(
      CHROMIUM,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        `--user-data-dir=${profile}`,
        '--virtual-time-budget=10000',
        '--dump-dom',
        pageUrl,
      ],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(dom).toContain('done');
    expect(dom).toContain('slots 200 days=1 request-id=readable');
    expect(dom).toContain('keyed blocked TypeError');
  });
});
