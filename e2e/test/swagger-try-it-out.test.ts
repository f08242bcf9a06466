import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { EXAMPLE_SCHEDULE_ID } from '@app/contracts';
import { startE2eStack, type E2eStack } from '../support/e2e-stack.js';
import { createOrganization } from '../support/organization.js';

const CHROMIUM = process.env.CHROMIUM_BIN ?? 'chromium';

/** What the test touches of an input or text area (this project compiles without the DOM types). */
interface TextField {
  value: string;
  select(): void;
  dispatchEvent(event: Event): boolean;
}

function chromiumPath(): string {
  const found = spawnSync('sh', ['-c', `command -v ${CHROMIUM}`], { encoding: 'utf8' }).stdout.trim();
  if (!found) throw new Error(`Chromium is needed (${CHROMIUM} was not found): apt-get install chromium, or set CHROMIUM_BIN.`);
  return found;
}

/** One operation of Swagger UI, driven as a person would: expand it, "Try it out", edit, "Execute". */
class SwaggerOperation {
  private readonly root: string;

  constructor(
    private readonly page: Page,
    tag: string,
    operationId: string,
  ) {
    this.root = `#operations-${tag}-${operationId}`;
  }

  async tryItOut(): Promise<void> {
    await this.page.click(`${this.root} .opblock-summary`);
    await this.page.waitForSelector(`${this.root} .try-out__btn`);
    await this.page.click(`${this.root} .try-out__btn`);
  }

  async body(): Promise<string> {
    return this.page.$eval(`${this.root} textarea.body-param__text`, (element) => (element as unknown as TextField).value);
  }

  async setBody(text: string): Promise<void> {
    await this.replaceText(`${this.root} textarea.body-param__text`, text);
  }

  /** Types into a parameter's field (its React input reads keystrokes, not a set value). */
  async setParameter(name: string, value: string): Promise<void> {
    const field = `${this.root} tr[data-param-name="${name}"] input`;
    await this.page.$eval(field, (element) => (element as unknown as TextField).select());
    await this.page.type(field, value);
  }

  /** Executes and answers the status and parsed body Swagger UI shows. */
  async execute(): Promise<{ status: number; body: unknown }> {
    await this.page.click(`${this.root} .execute`);
    const statusCell = `${this.root} .live-responses-table .response .response-col_status`;
    await this.page.waitForSelector(statusCell, { timeout: 15_000 });
    const status = Number(await this.page.$eval(statusCell, (element) => element.textContent?.trim()));
    const text = await this.page.$eval(
      `${this.root} .live-responses-table .response-col_description pre`,
      (element) => element.textContent ?? '',
    );
    return { status, body: JSON.parse(text) as unknown };
  }

  /** Sets a text area as typing would, in one step (React reads the `input` event); typing 400 characters takes a minute. */
  private async replaceText(selector: string, text: string): Promise<void> {
    await this.page.$eval(
      selector,
      (element, value) => {
        const field = element as unknown as TextField;
        Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), 'value')?.set?.call(field, value);
        field.dispatchEvent(new Event('input', { bubbles: true }));
      },
      text,
    );
  }
}

/**
 * The documented examples work as sent: in Swagger UI (/docs) in headless Chromium, "Try it out" on create
 * schedule, then slots, then create booking succeeds with the example bodies and parameters, changing only the
 * schedule id that the first call returned.
 */
describe('Swagger UI "Try it out" with the documented examples, in headless Chromium', () => {
  let stack: E2eStack;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    stack = await startE2eStack();
    const { key } = await createOrganization(stack);
    browser = await puppeteer.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    page = await browser.newPage();
    await page.goto(`${stack.gatewayUrl}/docs/`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('.opblock');
    // Authorize with the organization's key, as the "Authorize" dialog asks.
    await page.click('.btn.authorize');
    const apiKeyForm = '.modal-ux .auth-container:has(input) form';
    await page.waitForSelector(apiKeyForm);
    await page.type(`${apiKeyForm} input`, key);
    await page.click(`${apiKeyForm} .auth-btn-wrapper .authorize`);
    await page.click('.modal-ux .btn-done');
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('when each example is executed in turn, then the schedule, its slots and the booking are made', async () => {
    const createSchedule = new SwaggerOperation(page, 'schedules', 'createSchedule');
    await createSchedule.tryItOut();
    expect(JSON.parse(await createSchedule.body())).toMatchObject({ name: 'Consultations', timezone: 'Europe/Berlin' });
    const schedule = await createSchedule.execute();
    expect(schedule.status).toBe(201);
    const scheduleId = (schedule.body as { data: { id: string } }).data.id;

    const slots = new SwaggerOperation(page, 'slots', 'listSlots');
    await slots.tryItOut();
    await slots.setParameter('scheduleId', scheduleId);
    const listed = await slots.execute();
    expect(listed.status).toBe(200);
    const days = (listed.body as { days: { date: string; slots: { label: string }[] }[] }).days;
    expect(days.find((day) => day.date === '2030-01-07')?.slots.map((slot) => slot.label)).toContain('09:00');

    const createBooking = new SwaggerOperation(page, 'bookings', 'createBooking');
    await createBooking.tryItOut();
    const example = await createBooking.body();
    expect(example).toContain(EXAMPLE_SCHEDULE_ID);
    await createBooking.setBody(example.replace(EXAMPLE_SCHEDULE_ID, scheduleId));
    const booking = await createBooking.execute();
    expect(booking.status).toBe(201);
    expect(booking.body).toMatchObject({ data: { schedule_id: scheduleId, status: 'PENDING', start_time: '2030-01-07T08:00:00.000Z' } });
  }, 120_000);
});
