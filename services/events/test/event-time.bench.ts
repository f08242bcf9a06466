import { test } from 'vitest';
import { eventInstants } from '../src/domain/event-time.js';
import { slugFromTitle } from '../src/domain/slug.js';

// Vitest 5 benchmarks: `bench` is a fixture of the test context. Run with `npx vitest bench --run` here.
test('eventInstants: overnight event in America/New_York', async ({ bench }) => {
  await bench('overnight', () => {
    eventInstants({ startDate: '2026-11-01', startTime: '23:30', endTime: '01:30', timezone: 'America/New_York' });
  }).run();
});

test('eventInstants: start inside a DST gap in Australia/Lord_Howe', async ({ bench }) => {
  await bench('gap', () => {
    eventInstants({ startDate: '2026-10-04', startTime: '02:15', endTime: null, timezone: 'Australia/Lord_Howe' });
  }).run();
});

test('slugFromTitle', async ({ bench }) => {
  await bench('slug', () => {
    slugFromTitle('Café Crème — Consultation für Größen');
  }).run();
});
