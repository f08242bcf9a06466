export { testEnv } from './test-config.js';
export { schemaDrift, type DataModel } from './schema-drift.js';
export { prismaDatamodel } from './prisma-datamodel.js';
export { OwnNatsServer, freePort } from './nats-server.js';
export { startTestService, organizationHeaders } from './service-harness.js';
export { anonymousHeaders, callerAssertion, type AssertionOptions } from './caller-assertion.js';
export { generateCallerAssertionKeys, type CallerAssertionKeys } from './caller-assertion-keys.js';
export type { RunningService } from '../runtime/service.js';
export { eventually } from './eventually.js';
export { describeIdempotentCreates, listedCount, postWithKey, type IdempotentCaller } from './idempotency-contract.js';
// Images for upload tests (real headers, sizes on demand), shared by the catalog suite and the end-to-end suites.
export { GIF_1X1, JPEG_1X1, WEBP_1X1, png, pngHeaderClaiming } from './images.js';
