import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createEvent, data, list, openEvent, startEvents, type Client, type Running } from './support/harness.js';
import { keyClient } from './support/key-client.js';

/** Questions on events and the answers of their registrations (API.md "Ticket types, waitlists, check-in and questions"). */
let running: Running;
beforeAll(async () => {
  running = await startEvents();
});
afterAll(() => running.stop());

const QUESTIONS = [
  { id: 'diet', label: 'Dietary requirements', type: 'choice', required: true, options: ['none', 'vegetarian', 'vegan'] },
  { id: 'company', label: 'Company', type: 'text' },
  { id: 'photos_ok', label: 'May we take photos of you?', type: 'boolean', required: false },
];

const attendee = { name: 'Ada', email: 'ada@example.com' };

async function eventWithQuestions(api: Client, questions: unknown = QUESTIONS): Promise<string> {
  return String((await createEvent(api, openEvent({ slots: 50, questions }))).id);
}

const registerWith = (api: Client, eventId: string, answers: unknown) =>
  api.post(`/api/v1/events/${eventId}/registrations`, { ...attendee, answers });

describe('questions on an event', () => {
  it('when an event is created with questions, then its record shows them, required false by default', async () => {
    const api = client(running);

    const event = await createEvent(api, openEvent({ questions: QUESTIONS }));

    expect(event.questions).toEqual([QUESTIONS[0], { ...QUESTIONS[1], required: false }, QUESTIONS[2]]);
    expect(data(await api.get(`/api/v1/events/${String(event.id)}`)).questions).toEqual(event.questions);
  });

  it('when an event is created without questions, then it has none', async () => {
    const api = client(running);

    expect((await createEvent(api, openEvent())).questions).toEqual([]);
  });

  it('when the questions are patched, then the list is replaced', async () => {
    const api = client(running);
    const eventId = await eventWithQuestions(api);

    const reply = await api.patch(`/api/v1/events/${eventId}`, {
      questions: [{ id: 'tshirt', label: 'T-shirt', type: 'choice', options: ['S', 'M'] }],
    });

    expect(reply.status).toBe(200);
    expect(data(reply).questions).toEqual([{ id: 'tshirt', label: 'T-shirt', type: 'choice', required: false, options: ['S', 'M'] }]);
  });

  it.each([
    ['an id with capitals', [{ id: 'Diet', label: 'x', type: 'text' }], 'questions.0.id must be 1 to 40 characters of a-z, 0-9 and _'],
    [
      'an id over 40 characters',
      [{ id: 'a'.repeat(41), label: 'x', type: 'text' }],
      'questions.0.id must be 1 to 40 characters of a-z, 0-9 and _',
    ],
    ['no label', [{ id: 'a', type: 'text' }], 'questions.0.label is required'],
    [
      'a label over 500 characters',
      [{ id: 'a', label: 'x'.repeat(501), type: 'text' }],
      'questions.0.label must be at most 500 characters',
    ],
    ['an unknown type', [{ id: 'a', label: 'x', type: 'number' }], 'questions.0.type must be one of text, choice, boolean'],
    ['a choice without options', [{ id: 'a', label: 'x', type: 'choice' }], 'questions.0.options is required'],
    ['a choice with no option', [{ id: 'a', label: 'x', type: 'choice', options: [] }], 'questions.0.options must have at least 1 option'],
    [
      'a choice with 51 options',
      [{ id: 'a', label: 'x', type: 'choice', options: Array.from({ length: 51 }, (_, n) => `o${n}`) }],
      'questions.0.options must have at most 50 options',
    ],
    [
      'options on a text question',
      [{ id: 'a', label: 'x', type: 'text', options: ['y'] }],
      'questions.0.options is only allowed on a choice question',
    ],
    ['an unknown field', [{ id: 'a', label: 'x', type: 'text', hint: 'y' }], 'questions.0 has unknown field hint'],
    [
      'a repeated id',
      [
        { id: 'a', label: 'x', type: 'text' },
        { id: 'a', label: 'y', type: 'boolean' },
      ],
      'questions.1.id repeats the question id a',
    ],
    [
      '21 questions',
      Array.from({ length: 21 }, (_, n) => ({ id: `q${n}`, label: 'x', type: 'text' })),
      'questions must have at most 20 questions',
    ],
    ['not a list', { id: 'a' }, 'questions must be a list of questions'],
  ])('when a question has %s, then 400 naming it', async (_name, questions, message) => {
    const api = client(running);

    const reply = await api.post('/api/v1/events', openEvent({ questions }));

    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'VALIDATION_ERROR', error: message });
  });

  it('when an event has 20 questions, then it is accepted', async () => {
    const api = client(running);
    const questions = Array.from({ length: 20 }, (_, n) => ({ id: `q${n}`, label: `Question ${n}`, type: 'boolean' }));

    expect((await api.post('/api/v1/events', openEvent({ questions }))).status).toBe(201);
  });
});

describe('answers of a registration', () => {
  it('when the answers fit the questions, then 201 and the registration returns them as given', async () => {
    const api = client(running);
    const eventId = await eventWithQuestions(api);
    const answers = { diet: 'vegan', company: 'Analytical Engines Ltd', photos_ok: false };

    const reply = await registerWith(api, eventId, answers);

    expect(reply.status).toBe(201);
    expect(data(reply).answers).toEqual(answers);
    expect(list(await api.get(`/api/v1/events/${eventId}/registrations`))[0]?.answers).toEqual(answers);
  });

  it('when an optional question is left out, then 201', async () => {
    const api = client(running);
    const eventId = await eventWithQuestions(api);

    const reply = await registerWith(api, eventId, { diet: 'none' });

    expect(reply.status).toBe(201);
    expect(data(reply).answers).toEqual({ diet: 'none' });
  });

  it.each([
    ['a required answer is missing', { company: 'Acme' }, 'answers.diet', 'answers.diet is required'],
    ['no answers are given at all', undefined, 'answers.diet', 'answers.diet is required'],
    [
      'an id is no question of the event',
      { diet: 'none', shoe_size: '42' },
      'answers.shoe_size',
      'answers.shoe_size is not a question of this event',
    ],
    ['a choice is not among the options', { diet: 'carnivore' }, 'answers.diet', 'answers.diet must be one of none, vegetarian, vegan'],
    ['a choice is not a string', { diet: 3 }, 'answers.diet', 'answers.diet must be a string'],
    ['a boolean answer is a string', { diet: 'none', photos_ok: 'yes' }, 'answers.photos_ok', 'answers.photos_ok must be true or false'],
    ['a text answer is a number', { diet: 'none', company: 42 }, 'answers.company', 'answers.company must be a string'],
    [
      'a text answer is over 2,000 characters',
      { diet: 'none', company: 'x'.repeat(2001) },
      'answers.company',
      'answers.company must be at most 2000 characters',
    ],
  ])('when %s, then 400 VALIDATION_ERROR naming the question id', async (_name, answers, path, message) => {
    const api = client(running);
    const eventId = await eventWithQuestions(api);

    const reply = await api.post(`/api/v1/events/${eventId}/registrations`, answers === undefined ? attendee : { ...attendee, answers });

    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ code: 'VALIDATION_ERROR', error: message, details: [{ path, message }] });
    expect(list(await api.get(`/api/v1/events/${eventId}/registrations`))).toEqual([]);
  });

  it('when a text answer is exactly 2,000 characters, then 201', async () => {
    const api = client(running);
    const eventId = await eventWithQuestions(api);

    expect((await registerWith(api, eventId, { diet: 'none', company: 'x'.repeat(2000) })).status).toBe(201);
  });

  it('when the event has no questions, then any answer is refused and none is fine', async () => {
    const api = client(running);
    const eventId = await eventWithQuestions(api, []);

    const refused = await registerWith(api, eventId, { diet: 'vegan' });
    const accepted = await api.post(`/api/v1/events/${eventId}/registrations`, attendee);

    expect(refused.body).toMatchObject({ code: 'VALIDATION_ERROR', error: 'answers.diet is not a question of this event' });
    expect(accepted.status).toBe(201);
    expect(data(accepted).answers).toEqual({});
  });

  it('when the answers are not an object, then 400 naming answers', async () => {
    const api = client(running);
    const eventId = await eventWithQuestions(api);

    const reply = await registerWith(api, eventId, ['vegan']);

    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.stringMatching(/^answers /) });
  });

  it('when the questions change after people answered, then their answers stay as they were given', async () => {
    const api = client(running);
    const eventId = await eventWithQuestions(api);
    const answers = { diet: 'vegetarian', company: 'Acme', photos_ok: true };
    const { id } = data(await registerWith(api, eventId, answers));

    await api.patch(`/api/v1/events/${eventId}`, {
      questions: [{ id: 'diet', label: 'Food', type: 'choice', required: true, options: ['fish', 'meat'] }],
    });
    const later = await registerWith(api, eventId, { diet: 'fish' });
    const refusedNow = await registerWith(api, eventId, answers);

    const registrations = list(await api.get(`/api/v1/events/${eventId}/registrations`));
    expect(registrations.find((registration) => registration.id === id)?.answers).toEqual(answers);
    expect(later.status).toBe(201);
    expect(refusedNow.body).toMatchObject({ error: 'answers.diet must be one of fish, meat' });
  });

  it('when a publishable key registers with answers, then they are checked and kept the same way', async () => {
    const api = client(running);
    const eventId = await eventWithQuestions(api);
    const browser = keyClient(running, api.organizationId, 'publishable');

    const accepted = await browser.post(`/api/v1/events/${eventId}/registrations`, {
      ...attendee,
      answers: { diet: 'vegan', photos_ok: true },
    });
    const refused = await browser.post(`/api/v1/events/${eventId}/registrations`, { ...attendee, answers: {} });

    expect(accepted.status).toBe(201);
    expect(accepted.body.data).toMatchObject({
      answers: { diet: 'vegan', photos_ok: true },
      ticket_code: expect.stringMatching(/^[A-Z2-9]{10}$/),
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'VALIDATION_ERROR', error: 'answers.diet is required' });
  });
});
