export { testEnv } from './test-config.js';
export { schemaDrift, type DataModel } from './schema-drift.js';
export { prismaDatamodel } from './prisma-datamodel.js';
export { isReachable } from './reachability.js';
export { OwnNatsServer, freePort } from './nats-server.js';
export { startTestService, organizationHeaders } from './service-harness.js';
export type { RunningService } from '../runtime/service.js';
export { eventually } from './eventually.js';
