import { describeServiceBasics } from '@app/service-testing';
import { describe } from 'vitest';
import { SCHEMA } from '../src/service.js';
import { calendarSyncSuite } from './support/harness.js';

const suite = calendarSyncSuite();

describe('calendar-sync service', () => {
  describeServiceBasics({
    running: () => suite.running,
    schema: SCHEMA,
    prismaSchema: new URL('../prisma/schema.prisma', import.meta.url),
    paths: [
      '/api/v1/calendar-connections',
      '/api/v1/calendar-connections/{id}',
      '/api/v1/calendar-connections/{id}/sync',
      '/api/v1/calendar-connections/oauth/{provider}/authorize',
      '/api/calendar-connections/oauth/{provider}/callback',
    ],
  });
});
