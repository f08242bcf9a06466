import { expect } from 'vitest';
import { organizationClient, startTestService, type InjectedReply, type RunningService } from '@app/service-testing';
import { configSchema, type Config } from '../../src/config.js';
import { service } from '../../src/service.js';

export type Running = RunningService<Config>;

export function startEvents(): Promise<Running> {
  return startTestService(service, configSchema);
}

export type Reply = InjectedReply;

/** An API client for one organization, talking to the service the way the gateway does. */
export function client(running: Running, organizationId?: string, timezone?: string) {
  return organizationClient(running.app, organizationId, timezone);
}
export type Client = ReturnType<typeof client>;

/** `data` of a reply, typed loosely for field assertions. */
export function data(reply: Reply): Record<string, unknown> {
  return reply.body.data as Record<string, unknown>;
}

export function list(reply: Reply): Record<string, unknown>[] {
  return reply.body.data as Record<string, unknown>[];
}

/** Creates an event (a 201, or the test fails here) and returns its record. */
export function createEvent(api: Client, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  return created(api.post('/api/v1/events', body));
}

/** Creates an event type (a 201, or the test fails here) and returns its record. */
export function createEventType(api: Client, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  return created(api.post('/api/v1/event-types', body));
}

async function created(sent: Promise<Reply>): Promise<Record<string, unknown>> {
  const reply = await sent;
  expect(reply.status).toBe(201);
  return data(reply);
}

/** A published event that opens for registration: dated years ahead. */
export function openEvent(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { title: 'Workshop', start_date: '2031-05-20', start_time: '10:00', end_time: '12:00', status: 'published', ...overrides };
}
