import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import axe from 'axe-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { widgetDemoUrl } from '@app/dev-stack';
import { launchChromium } from '../support/chromium.js';
import { serveEmbeddingPage, type EmbeddingPage } from '../support/embedding-page.js';
import { startE2eStack, type E2eStack } from '../support/e2e-stack.js';
import { createOrganization } from '../support/organization.js';

/**
 * The booking widget in a real browser (Debian's Chromium, headless, through playwright-core), embedded in a page of
 * another origin than the gateway's, against the real processes. Screenshots of every step go to
 * e2e/artifacts/booking-widget/ (gitignored; CI keeps the folder), and axe-core checks each step's page.
 */
const ARTIFACTS = new URL('../artifacts/booking-widget/', import.meta.url);
const AXE = axe.source;
const WEEK = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const VISITOR_ZONE = 'America/New_York';
const SLOTS = 'booking-widget button[part="slot"]';
const ALERT = 'booking-widget [role="alert"]';
const STATUS = 'booking-widget [role="status"]';

let stack: E2eStack;
let browser: Browser;
let allowed: EmbeddingPage;
let refused: EmbeddingPage;
let secretKey: string;
let publishableKey: string;
let scheduleId: string;

beforeAll(async () => {
  await rm(ARTIFACTS, { recursive: true, force: true });
  await mkdir(ARTIFACTS, { recursive: true });
  stack = await startE2eStack();
  const widget = await fetch(`${stack.gatewayUrl}/widget/booking.js`);
  const integrity = `sha384-${createHash('sha384')
    .update(Buffer.from(await widget.arrayBuffer()))
    .digest('base64')}`;
  allowed = await serveEmbeddingPage({ gatewayUrl: stack.gatewayUrl, integrity });
  refused = await serveEmbeddingPage({ gatewayUrl: stack.gatewayUrl, integrity });
  secretKey = (await createOrganization(stack, 'Widget shop')).key;
  const schedule = await stack.call('POST', '/api/v1/schedules', {
    key: secretKey,
    body: {
      name: 'Consultations',
      timezone: 'UTC',
      slot_duration: 30,
      public_booking: true,
      availability: WEEK.map((day) => ({ day, start: '00:00', end: '24:00' })),
    },
  });
  expect(schedule.status, JSON.stringify(schedule.body)).toBe(201);
  scheduleId = (schedule.body as { data: { id: string } }).data.id;
  const key = await stack.call('POST', '/api/v1/api-keys', {
    key: secretKey,
    body: { name: 'Booking page', type: 'publishable', allowed_origins: [allowed.origin] },
  });
  expect(key.status, JSON.stringify(key.body)).toBe(201);
  publishableKey = (key.body as { data: { key: string } }).data.key;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await allowed?.close();
  await refused?.close();
  await stack?.stop();
});

/** A visitor in New York: a fresh browser context (no shared cache or storage) on the embedding page. */
async function visit(page: EmbeddingPage = allowed): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ timezoneId: VISITOR_ZONE, locale: 'en-US', viewport: { width: 900, height: 900 } });
  const tab = await context.newPage();
  await tab.goto(page.url(publishableKey, scheduleId));
  return { context, page: tab };
}

async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: new URL(`${name}.png`, ARTIFACTS).pathname, fullPage: true });
}

/** axe-core in the page (it reads the widget's open shadow root): no serious or critical violation. */
async function expectAccessible(page: Page, step: string): Promise<void> {
  if (!(await page.evaluate('typeof axe !== "undefined"'))) await page.addScriptTag({ content: AXE });
  const violations = (await page.evaluate(
    'axe.run(document).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target) })))',
  )) as { id: string; impact: string | null }[];
  const serious = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(serious, `${step}: ${JSON.stringify(serious)}`).toEqual([]);
}

const slotStarts = (page: Page) => page.locator(SLOTS).evaluateAll((buttons) => buttons.map((b) => b.getAttribute('data-start')));

/** Books the first free slot with the keyboard alone: Enter on the slot, type the name, Tab, the email, Enter. */
async function bookFirstSlot(page: Page, name: string, email: string): Promise<string> {
  const slot = page.locator(SLOTS).first();
  const start = String(await slot.getAttribute('data-start'));
  await slot.focus();
  await page.keyboard.press('Enter');
  await page.getByLabel('Name').waitFor();
  await page.keyboard.type(name);
  await page.keyboard.press('Tab');
  await page.keyboard.type(email);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'You are booked' }).waitFor();
  return start;
}

async function bookingsAt(start: string): Promise<{ id: string; status: string; attendee_email: string }[]> {
  const list = await stack.call('GET', `/api/v1/bookings?start_date=${encodeURIComponent(start)}&end_date=${encodeURIComponent(start)}`, {
    key: secretKey,
  });
  const bookings = (list.body as { data: { id: string; start_time: string; status: string; attendee_email: string }[] }).data;
  return bookings.filter((booking) => booking.start_time === start);
}

describe('the booking widget on another origin', () => {
  it('when a visitor picks a slot, gives a bad email then a good one, and books, then the API has the booking and the slot leaves the widget', async () => {
    const { context, page } = await visit();
    await page.locator(SLOTS).first().waitFor();
    await screenshot(page, '01-slots');
    await expectAccessible(page, 'slots');

    // The visitor's zone, picked for them; labels are that zone's local times.
    const zone = page.getByLabel('Time zone');
    expect(await zone.inputValue()).toBe(VISITOR_ZONE);
    const first = page.locator(SLOTS).first();
    const start = String(await first.getAttribute('data-start'));
    const newYork = new Intl.DateTimeFormat('en-GB', { timeZone: VISITOR_ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    expect(await first.textContent()).toBe(newYork.format(new Date(start)));

    await first.focus();
    await page.keyboard.press('Enter');
    await page.getByLabel('Name').waitFor();
    await screenshot(page, '02-held');
    await expectAccessible(page, 'details form');
    await page.keyboard.type('Ada Lovelace');
    await page.keyboard.press('Tab');
    await page.keyboard.type('ada@');
    const refusal = page.waitForResponse(
      (response) => response.url().includes('/api/v1/bookings') && response.request().method() === 'POST',
    );
    await page.keyboard.press('Enter');
    const answer = await refusal;
    expect(answer.status()).toBe(400);
    const detail = ((await answer.json()) as { details: { path: string; message: string }[] }).details.find(
      (d) => d.path === 'attendee.email',
    );
    const email = page.getByLabel('Email');
    await expect.poll(() => email.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('booking-widget #email-error').textContent()).toBe(detail?.message);
    await screenshot(page, '03-validation');
    await expectAccessible(page, 'validation messages');

    await email.fill('ada@example.com');
    await email.press('Enter');
    await page.getByRole('heading', { name: 'You are booked' }).waitFor();
    await screenshot(page, '04-confirmed');
    await expectAccessible(page, 'confirmation');

    expect(await bookingsAt(start)).toEqual([
      expect.objectContaining({ status: expect.stringMatching(/CONFIRMED|PENDING/), attendee_email: 'ada@example.com' }),
    ]);
    const later = await visit();
    await later.page.locator(SLOTS).first().waitFor();
    expect(await slotStarts(later.page)).not.toContain(start);
    await screenshot(later.page, '05-slot-gone');
    await later.context.close();
    await context.close();
  });

  it('when two visitors race for one slot, then one holds it and the other is told the API 409 message, and no longer sees it', async () => {
    const [one, two] = await Promise.all([visit(), visit()]);
    await Promise.all([one.page.locator(SLOTS).first().waitFor(), two.page.locator(SLOTS).first().waitFor()]);
    const start = String(await one.page.locator(SLOTS).first().getAttribute('data-start'));
    const answers = [one.page, two.page].map((page) =>
      page.waitForResponse((response) => response.url().includes('/api/v1/holds') && response.request().method() === 'POST'),
    );
    await Promise.all([one.page, two.page].map((page) => page.locator(`${SLOTS}[data-start="${start}"]`).click()));
    const responses = await Promise.all(answers);
    const statuses = responses.map((response) => response.status());

    expect([...statuses].sort()).toEqual([201, 409]);
    const lost = statuses.indexOf(409);
    const [loserPage, winnerPage] = lost === 0 ? [one.page, two.page] : [two.page, one.page];
    const refusal = (await responses[lost]!.json()) as { error: string; code: string };
    expect(refusal.code).toBe('SLOT_TAKEN');
    await expect.poll(() => loserPage.locator(ALERT).textContent()).toBe(refusal.error);
    await winnerPage.getByLabel('Name').waitFor();
    await screenshot(winnerPage, '06-race-winner');
    await screenshot(loserPage, '07-race-loser');
    await expectAccessible(loserPage, 'race refusal');
    expect(await slotStarts(loserPage)).not.toContain(start);
    await one.context.close();
    await two.context.close();
  });

  it('when the visitor cancels from the confirmation, then the booking is cancelled and its slot is offered again', async () => {
    const { context, page } = await visit();
    await page.locator(SLOTS).first().waitFor();
    const start = await bookFirstSlot(page, 'Grace Hopper', 'grace@example.com');
    expect(await slotStarts(page)).not.toContain(start); // the confirmation replaced the list

    await page.getByRole('button', { name: 'Cancel this booking' }).press('Enter');
    await expect.poll(() => page.locator(STATUS).textContent()).toBe('Your booking is cancelled.');
    await page.locator(SLOTS).first().waitFor();
    await screenshot(page, '08-cancelled');
    await expectAccessible(page, 'after cancel');

    // The widget waits for the freed slot (scheduling's projection learns of the cancellation a moment later).
    expect(await slotStarts(page)).toContain(start);
    expect(await bookingsAt(start)).toEqual([expect.objectContaining({ status: 'CANCELLED', attendee_email: 'grace@example.com' })]);
    await context.close();
  });

  it('when the page is on an origin the key does not list, then the gateway refuses it and the widget shows no slot', async () => {
    const { context, page } = await visit(refused);
    await expect.poll(() => page.locator(ALERT).textContent()).toMatch(/could not be reached/);
    await screenshot(page, '09-origin-refused');
    await expectAccessible(page, 'origin refused');
    expect(await page.locator(SLOTS).count()).toBe(0);

    const direct = await stack.call('GET', `/api/v1/schedules/${scheduleId}`, { key: publishableKey, headers: { origin: refused.origin } });
    expect(direct.status).toBe(403);
    expect(direct.body).toMatchObject({ code: 'ORIGIN_NOT_ALLOWED' });
    await context.close();
  });

  it("when npm start's demo page is set up for an organization, then it embeds the widget and a visitor books on it", async () => {
    const state = await mkdtemp(join(tmpdir(), 'widget-demo-'));
    const url = await widgetDemoUrl(stack.gatewayUrl, { apiKey: secretKey, stateFile: join(state, 'demo.json') });
    const again = await widgetDemoUrl(stack.gatewayUrl, { apiKey: secretKey, stateFile: join(state, 'demo.json') });
    expect(again).toBe(url); // a second start reuses the key and schedule

    const context = await browser.newContext({ timezoneId: VISITOR_ZONE });
    const page = await context.newPage();
    await page.goto(url);
    await page.locator(SLOTS).first().waitFor();
    await screenshot(page, '10-demo');
    await expectAccessible(page, 'demo page');
    await bookFirstSlot(page, 'Demo Visitor', 'demo@example.com');
    await screenshot(page, '11-demo-booked');
    await context.close();
    await rm(state, { recursive: true, force: true });
  });
});
