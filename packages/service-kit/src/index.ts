export * from './config.js';
export * from './errors.js';
export { KIT_TUNING, kitTuning, UNHURRIED_BATCH_GAP_MS, type KitTuning, type KitTuningOverrides, type SweepCadence } from './tuning.js';
export { buildService, type ServiceApp, type ServiceOptions } from './http/build-service.js';
export { useLoadShedding, type LoadLimits } from './http/load-shedding.js';
export { buildServiceApp, type AppDeps, type RouteRegistrar } from './http/service-app.js';
export { errorHandler, notFoundHandler } from './http/error-handler.js';
export { callerOf, eventContextOf, isPublishable, messageCallerOf, optionalCallerOf, type Caller } from './http/caller.js';
export { idParamsSchema, recordId } from './http/record-id.js';
export { clientSecretHash, clientSecretOpens, issueClientSecret, type IssuedClientSecret } from './http/client-secret.js';
export { answerRecord, ifMatchOf, isNotModified, requireMatch, type IfMatch, type Versioned } from './http/conditional-requests.js';
export type { RecordVersion } from './http/entity-tags.js';
export { serviceContext, type ServiceContext } from './context.js';
export { idempotencyReservation } from './http/idempotency/idempotency-hooks.js';
export { completeReservationSql, IdempotencyStore, type Reservation } from './http/idempotency/idempotency.store.js';
export { canonicalJson, requestHash } from './http/idempotency/request-hash.js';
export type { ReadinessCheck } from './http/health.js';
export { adminUrlOf, createPool, ensureDatabase } from './db/pool.js';
export { namedStatement, pageClause, SqlParams } from './db/statements.js';
export {
  listPage,
  ListPage,
  updatedSinceCondition,
  type CursorKeyed,
  type ListDefinition,
  type ListOrder,
  type ListQuery,
  type ListScope,
  type PageSql,
  type SortKey,
  type SortKeyType,
} from './db/list-page.js';
export { inPageOrder, pageOfIds, pageOfRows, type ListSource } from './db/table-page.js';
export { cursorInvalid, decodeListCursor, encodeListCursor, type CursorScope } from './db/list-cursor.js';
export { sqlOf, type Queryable, type SqlResult } from './db/sql.js';
export { lockedMatch, lockedRead, lockVersion } from './db/record-lock.js';
export { withTransaction } from './db/transaction.js';
export {
  isExclusionViolation,
  isForeignKeyViolation,
  isRetryableConflict,
  isUniqueViolation,
  pgFailureOf,
  SqlState,
} from './db/pg-errors.js';
export { isoInstant, isoInstantSql } from './db/instants.js';
export { prismaAdapter } from './db/prisma.js';
export { migrate, type MigrateOptions } from './db/migrate.js';
export { runMigrationStep } from './runtime/migration-step.js';
export { Bus, type BusOptions } from './nats/bus.js';
export {
  DEAD_LETTER_ADMIN_USER,
  deadLetterAdminPermissions,
  hasDeadLetters,
  natsPermissions,
  type NatsPermissions,
} from './nats/permissions.js';
export { natsAuthorizationConfig, type NatsUser } from './nats/authorization-config.js';
export type { RequestHandler } from './nats/endpoint.js';
export { startConsumer, type ConsumerOptions, type RunningConsumer } from './nats/consumer.js';
export { consumerTask } from './nats/consumer-task.js';
export { retryDelayMs, type RetrySchedule } from './nats/retry-schedule.js';
export { readStreamInOrder, streamCreated } from './nats/stream-reader.js';
export { isJetStreamApiError, JetStreamCode } from './nats/jetstream-errors.js';
export { ArrivalQueue } from './nats/arrival-queue.js';
export { DeadLetters, type DeadLetterFilter, type DeadLetterRecord, type DeadLetterSummary } from './nats/dead-letter-admin.js';
export { DeadLetterHeader, deadLetterStream, deadLetterSubject } from './nats/dead-letter-naming.js';
export { embeddedIPv4, type EmbeddedIPv4, type EmbeddingForm } from './network/embedded-ipv4.js';
export { ipLiteralOf, isPublicAddress } from './network/public-address.js';
export {
  checkTargetUrl,
  guardedLookup,
  refusedLiteral,
  systemResolve,
  TargetRefusedError,
  type Resolve,
  type TargetPolicy,
} from './network/target-guard.js';
export { isTransientError } from './transient-errors.js';
export { eventHandler, readEvent, type EventHandler } from './nats/event-handler.js';
export { outboxInsertSql, outboxRow, recordEvent, type EventContext, type OutboxRow } from './outbox/outbox.js';
export { registerBrokerLimit } from './outbox/broker-limit.js';
export { previousAttributes } from './outbox/previous-attributes.js';
export { activeTraceContext, type StoredTraceContext } from './telemetry/trace-context.js';
export { OutboxRelay, type RelayOptions } from './outbox/relay.js';
export { RetentionSweeper, retentionOf, type RetainedRows, type RetentionOptions, type SweepResult } from './outbox/retention-sweeper.js';
export { DUPLICATE_WINDOW_MS, type StreamLimits } from './nats/stream-limits.js';
export { createLogger } from './runtime/logger.js';
export { PollingLoop } from './workers/polling-loop.js';
export { ClaimingLoop, type ClaimingLoopOptions } from './workers/claiming-loop.js';
export { openInfrastructure, type Infrastructure } from './runtime/infrastructure.js';
export { startService, type ServiceDefinition, type RunningService, type Built, type StartOptions } from './runtime/service.js';
export type { BackgroundTask } from './workers/background-task.js';
export { runMain } from './runtime/main.js';
export { trustCaller } from './http/caller-assertion.js';
export {
  CALLER_ASSERTION_ALGORITHM,
  CALLER_ASSERTION_ISSUER,
  CALLER_ASSERTION_TTL_SECONDS,
  callerAssertionClaims,
  type AssertedCaller,
} from './caller-assertion/claims.js';
export {
  callerAssertionSecretsSchema,
  callerAssertionSigningKeysSchema,
  type CallerAssertionKey,
  type CallerAssertionSecrets,
} from './caller-assertion/keys.js';
export { callerAssertionSigner, callerAssertionVerifier, type Mint } from './caller-assertion/token.js';
export type { AsyncPathMetrics, LabelledCounter } from './runtime/async-path-metrics.js';
