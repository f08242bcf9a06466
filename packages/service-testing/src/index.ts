export { testEnv } from './test-config.js';
export { schemaDrift } from './schema-drift.js';
export { prismaDatamodel } from './prisma-datamodel.js';
export { OwnNatsServer } from './nats-server.js';
// A nats-server of the test's own with a configuration (the generated NATS users): fails when the binary is missing.
export { NatsBinary } from './nats-binary.js';
// A port of the test's own for as long as it runs, forwarding to a backend that may move (or to nothing: a service that is down).
export { PortForwarder } from '@scheduling-shop/testkit';
export { startTestService, organizationClient, organizationHeaders, keyKindHeaders, type InjectedReply } from './service-harness.js';
export { FileDatabase } from './file-database.js';
export { analyzeTables } from './analyze.js';
export { preparedPlans, type PreparedPlans } from './prepared-statements.js';
export { expectIndexedListReads, statementPlans } from './statement-plans.js';
export { neighbourBus, publishDomainEvent, withNeighbourBus } from './neighbour-bus.js';
export { anonymousHeaders, callerAssertion } from './caller-assertion.js';
export { testAssertionSecret, testAssertionSecrets } from './caller-assertion-keys.js';
export type { RunningService } from '@app/service-kit';
export { eventually } from './eventually.js';
// A service, stack or client the tests of a file or describe block share: made in its beforeAll, stopped in its afterAll.
export { preparedForTests, startedForTests } from './started-for-tests.js';
export { metricValue } from './metric-value.js';
export { capturedLog } from './captured-log.js';
export { FakeResponder, fakeResponder, ownNatsPrefix } from './fake-responder.js';
export { trickleRequest } from './slow-client.js';
export {
  describeIdempotentCreates,
  keyedReply,
  listedCount,
  postWithKey,
  type IdempotentCaller,
  type KeyedReply,
} from './idempotency-contract.js';
// Images for upload tests (real headers, sizes on demand), shared by the catalog suite and the end-to-end suites.
export { GIF_1X1, JPEG_1X1, WEBP_1X1, png, pngHeaderClaiming } from './images.js';
// Google Calendar and Microsoft Graph as one local HTTP server: calendar-sync's suite and the end-to-end suites.
export { FakeIcsServer } from './calendar-providers/fake-ics-server.js';
export { CLIENT_ID as FAKE_CALENDAR_CLIENT_ID, FakeProviders, type FakeAccount } from './calendar-providers/fake-providers.js';
export { expectTextStoredAsValidated } from './text-properties.js';
// Readiness, Prisma against the migrations, the OpenAPI paths: what every service's suite checks the same way.
export { describeServiceBasics } from './service-basics.js';
export { describeConditionalRequests, recordRequests } from './conditional-requests-contract.js';
// API.md's list contract (cursor paging, updated_since), run by each service on its own lists.
export {
  describeCursorWalkUnderInserts,
  describeListPaging,
  type Listed,
  type ListReply,
  type OrderedListCaller,
  type PagedListCaller,
} from './list-paging-contract.js';
