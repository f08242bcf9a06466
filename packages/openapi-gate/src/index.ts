// What the repository's scripts run: scripts/openapi-gate.mjs, openapi-snapshot.mjs and asyncapi.mjs.
export { checkRepository, releaseSnapshot } from './commands.ts';
export { writeDocument } from './document-file.ts';
export { asyncApiSnapshotFile, checkEventContracts, writeEventSnapshot } from './event-commands.ts';
export { evaluateEventGate } from './event-contracts.ts';
