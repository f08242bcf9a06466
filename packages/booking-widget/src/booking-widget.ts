import { createPublicClient, type CreatedBooking, type Hold, type PublicClient, type PublicSchedule } from '@scheduling-shop/sdk';
import { problemOf, type Problem } from './api-errors.js';
import { addDays, dayLabel, instantLabel, localDate, timeZones, visitorTimeZone } from './dates.js';
import { h } from './dom.js';
import { STYLES } from './styles.js';

/** How many days of slots the widget lists, today included. */
const DAYS = 14;
/**
 * After a cancellation the slots are asked again until the freed one shows: scheduling's projection learns of the
 * cancellation within its consistency window (milliseconds to a second or two), not with the cancel's answer.
 */
const FREED_RETRIES = 10;
const FREED_RETRY_MS = 300;

interface Slot {
  start: string;
  end: string;
  label: string;
}
interface Day {
  date: string;
  slots: Slot[];
}

/**
 * `<booking-widget api="https://api.example.com" publishable-key="pk_…" schedule-id="…">`: a public schedule's free
 * slots of the next 14 days in the visitor's time zone (a picker changes it), a hold on the chosen slot, the
 * attendee's name and email (the API's validation messages beside each field), the booking with the hold, and its
 * confirmation with a cancel button that uses the booking's client_secret. Everything lives in an open shadow root,
 * themed by CSS custom properties (docs/booking-widget.md). Fires `booking-widget:booked` and
 * `booking-widget:cancelled` (detail: the booking) on itself.
 */
export class BookingWidget extends HTMLElement {
  static readonly observedAttributes = ['api', 'publishable-key', 'schedule-id'];

  private readonly root: ShadowRoot;
  private readonly body: HTMLDivElement;
  private readonly alert: HTMLParagraphElement;
  private readonly status: HTMLParagraphElement;
  private client: PublicClient | undefined;
  private schedule: PublicSchedule | undefined;
  private timeZone = visitorTimeZone();
  private hold: Hold | undefined;
  private generation = 0;
  private restartQueued = false;

  constructor() {
    super();
    this.root = this.attachShadow({ mode: 'open' });
    const style = h('style');
    style.textContent = STYLES;
    // Errors are announced at once; progress and confirmations politely.
    this.alert = h('p', { class: 'error', role: 'alert', 'aria-live': 'assertive', part: 'error' });
    this.status = h('p', { class: 'muted', role: 'status', 'aria-live': 'polite', part: 'status' });
    this.body = h('div', { part: 'body' });
    this.root.append(style, h('section', { 'aria-label': 'Book a time', part: 'container' }, this.alert, this.status, this.body));
  }

  connectedCallback(): void {
    this.restart();
  }

  attributeChangedCallback(): void {
    this.restart();
  }

  /** One start for a burst of changes: an upgrade reports every attribute, then connects. */
  private restart(): void {
    if (this.restartQueued) return;
    this.restartQueued = true;
    queueMicrotask(() => {
      this.restartQueued = false;
      if (this.isConnected) void this.start();
    });
  }

  /** (Re)reads the attributes and the schedule, then lists the slots. */
  private async start(): Promise<void> {
    const api = this.getAttribute('api') ?? '';
    const key = this.getAttribute('publishable-key') ?? '';
    const scheduleId = this.getAttribute('schedule-id') ?? '';
    const generation = ++this.generation;
    this.clearAlert();
    if (!api || !key || !scheduleId)
      return this.fail({ message: 'The widget needs api, publishable-key and schedule-id.', code: undefined, fields: {} });
    this.client = createPublicClient({ baseUrl: api.replace(/\/+$/, ''), publishableKey: key, retries: { maxAttempts: 2 } });
    this.say('Loading…');
    try {
      const { data } = await this.client.schedule(scheduleId);
      if (generation !== this.generation) return;
      this.schedule = data.data;
      await this.showSlots();
    } catch (error) {
      if (generation === this.generation) this.fail(problemOf(error));
    }
  }

  /**
   * `message` replaces the count of free times. `freed`: the start of a slot just cancelled, which the list waits for
   * (FREED_RETRIES). `taken`: the start of a slot the API just refused as taken (SLOT_TAKEN), left out of the list: the
   * projection the slots come from may not know the other visitor's hold yet, and the visitor must not be offered
   * what they were just told is gone.
   */
  private async showSlots({ message, freed, taken }: { message?: string; freed?: string; taken?: string } = {}): Promise<void> {
    const { client, schedule } = this;
    if (!client || !schedule) return;
    const startDate = localDate(new Date(), this.timeZone);
    this.say('Loading free times…');
    const query = { scheduleId: schedule.id, startDate, endDate: addDays(startDate, DAYS - 1), timezone: this.timeZone };
    let all = (await client.slots(query)).data.days as Day[];
    for (let retry = 0; freed !== undefined && retry < FREED_RETRIES; retry += 1) {
      if (all.some((day) => day.slots.some((slot) => slot.start === freed))) break;
      await new Promise((resolve) => setTimeout(resolve, FREED_RETRY_MS));
      all = (await client.slots(query)).data.days as Day[];
    }
    const days = all
      .map((day) => (taken === undefined ? day : { ...day, slots: day.slots.filter((slot) => slot.start !== taken) }))
      .filter((day) => day.slots.length > 0);
    const picker = this.timeZonePicker();
    const list =
      days.length === 0
        ? h('p', {}, 'No free times in the next 14 days.')
        : h('div', { class: 'days', part: 'days' }, ...days.map((day) => this.dayGroup(day)));
    this.render(h('h2', { part: 'title' }, schedule.name), picker, list);
    this.say(message ?? `${days.reduce((sum, day) => sum + day.slots.length, 0)} free times in the next ${DAYS} days.`);
  }

  private timeZonePicker(): HTMLElement {
    const select = h('select', { id: 'timezone', name: 'timezone', part: 'timezone' });
    for (const zone of timeZones(this.timeZone)) select.append(h('option', { value: zone, selected: zone === this.timeZone }, zone));
    select.addEventListener('change', () => {
      this.timeZone = select.value;
      this.guard(() => this.showSlots());
    });
    return h('div', {}, h('label', { for: 'timezone' }, 'Time zone'), select);
  }

  private dayGroup(day: Day): HTMLElement {
    const heading = dayLabel(day.date, this.locale());
    const id = `day-${day.date}`;
    const buttons = day.slots.map((slot) => {
      const button = h(
        'button',
        { type: 'button', part: 'slot', 'data-start': slot.start, 'aria-label': `${heading}, ${slot.label}` },
        slot.label,
      );
      button.addEventListener('click', () => this.guard(() => this.holdSlot(slot)));
      return h('li', {}, button);
    });
    return h('div', { role: 'group', 'aria-labelledby': id }, h('h3', { id }, heading), h('ul', {}, ...buttons));
  }

  private async holdSlot(slot: Slot): Promise<void> {
    const { client, schedule } = this;
    if (!client || !schedule) return;
    this.clearAlert();
    this.say('Holding this time for you…');
    try {
      const { data } = await client.holds.create({ schedule_id: schedule.id, start_time: slot.start, end_time: slot.end });
      this.hold = data.data;
    } catch (error) {
      const problem = problemOf(error);
      await this.showSlots(problem.code === 'SLOT_TAKEN' ? { taken: slot.start } : {});
      return this.fail(problem);
    }
    this.showForm();
  }

  private showForm(fields: Problem['fields'] = {}, values: { name: string; email: string } = { name: '', email: '' }): void {
    const hold = this.hold;
    if (!hold) return;
    const field = (name: 'name' | 'email', label: string, type: string, autocomplete: string) => {
      const errorId = `${name}-error`;
      const input = h('input', {
        id: name,
        name,
        type,
        autocomplete,
        required: true,
        'aria-invalid': fields[name] ? 'true' : undefined,
        'aria-describedby': fields[name] ? errorId : undefined,
        part: 'input',
      });
      input.value = values[name];
      return h('div', {}, h('label', { for: name }, label), input, h('p', { id: errorId, class: 'error' }, fields[name] ?? ''));
    };
    // noValidate: the API judges the fields, and its messages are the ones shown.
    const form = h('form', { novalidate: true, part: 'form' });
    const submit = h('button', { type: 'submit', class: 'primary', part: 'book' }, 'Book');
    const back = h('button', { type: 'button', part: 'back' }, 'Choose another time');
    form.append(
      field('name', 'Name', 'text', 'name'),
      field('email', 'Email', 'email', 'email'),
      h('div', { class: 'actions' }, submit, back),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const data = new FormData(form);
      this.guard(() => this.book(String(data.get('name') ?? ''), String(data.get('email') ?? '')));
    });
    back.addEventListener('click', () => this.guard(() => this.releaseHold()));
    const when = instantLabel(hold.start_time, this.timeZone, this.locale());
    this.render(h('h2', { part: 'title' }, 'Your details'), h('p', {}, `${when} (${this.timeZone})`), form);
    this.say(`This time is held for you until ${instantLabel(hold.expires_at, this.timeZone, this.locale())}.`);
    const invalid = fields.name ? 'name' : fields.email ? 'email' : 'name';
    this.root.getElementById(invalid)?.focus();
  }

  private async book(name: string, email: string): Promise<void> {
    const { client, schedule, hold } = this;
    if (!client || !schedule || !hold) return;
    this.clearAlert();
    this.say('Booking…');
    let booking: CreatedBooking;
    try {
      const { data } = await client.bookings.create({
        schedule_id: schedule.id,
        start_time: hold.start_time,
        end_time: hold.end_time,
        hold_id: hold.id,
        timezone: this.timeZone,
        attendee: { name, email, timezone: this.timeZone },
      });
      booking = data.data;
    } catch (error) {
      const problem = problemOf(error);
      if (problem.code === 'VALIDATION_ERROR') {
        this.showForm(problem.fields, { name, email });
        return this.fail(problem);
      }
      // The hold is gone (expired, used) or the slot was lost: back to the free times, with the API's reason.
      const lost = problem.code === 'SLOT_TAKEN' ? this.hold?.start_time : undefined;
      this.hold = undefined;
      await this.showSlots(lost === undefined ? {} : { taken: lost });
      return this.fail(problem);
    }
    this.hold = undefined;
    this.showConfirmation(booking);
    this.dispatchEvent(new CustomEvent('booking-widget:booked', { detail: booking, bubbles: true, composed: true }));
  }

  private showConfirmation(booking: CreatedBooking): void {
    const heading = h('h2', { tabindex: '-1', part: 'title' }, 'You are booked');
    const cancel = h('button', { type: 'button', part: 'cancel' }, 'Cancel this booking');
    cancel.addEventListener('click', () => this.guard(() => this.cancel(booking)));
    const when = instantLabel(booking.start_time, this.timeZone, this.locale());
    this.render(heading, h('p', { part: 'confirmation' }, `${when} (${this.timeZone})`), h('div', { class: 'actions' }, cancel));
    this.say(`Booked: ${when}.`);
    heading.focus();
  }

  private async cancel(booking: CreatedBooking): Promise<void> {
    if (!this.client) return;
    this.clearAlert();
    await this.client.bookings.cancel(booking.id, booking.client_secret);
    this.dispatchEvent(new CustomEvent('booking-widget:cancelled', { detail: booking, bubbles: true, composed: true }));
    await this.showSlots({ message: 'Your booking is cancelled.', freed: booking.start_time });
  }

  private async releaseHold(): Promise<void> {
    const hold = this.hold;
    this.hold = undefined;
    if (hold && this.client) await this.client.holds.release(hold.id).catch(() => undefined); // it expires anyway
    await this.showSlots();
  }

  /** Runs a step; a failure is announced with the API's message, and the controls come back. */
  private guard(step: () => Promise<void>): void {
    const buttons = [...this.root.querySelectorAll('button')];
    for (const button of buttons) button.disabled = true;
    step()
      .catch((error: unknown) => this.fail(problemOf(error)))
      .finally(() => {
        for (const button of buttons) if (button.isConnected) button.disabled = false;
      });
  }

  private render(...children: Node[]): void {
    this.body.replaceChildren(...children);
  }

  private say(message: string): void {
    this.status.textContent = message;
  }

  private fail(problem: Problem): void {
    this.say('');
    this.alert.textContent = problem.message;
  }

  private clearAlert(): void {
    this.alert.textContent = '';
  }

  private locale(): string | undefined {
    return this.getAttribute('locale') ?? undefined;
  }
}
