export type { BreakingChange, BreakingKind } from './breaking-change.ts';
export { changelogEntry } from './changelog.ts';
export { checkRepository, releaseSnapshot, repositoryFiles } from './commands.ts';
export { diffDocuments } from './diff-documents.ts';
export { readDocument, writeDocument } from './document-file.ts';
export { evaluateGate, type GateInput, type GateVerdict } from './gate.ts';
export { formatVerdict } from './report.ts';
export { evaluateEventGate, formatEventVerdict, type EventGateVerdict } from './event-contracts.ts';
export { asyncApiSnapshotFile, checkEventContracts, writeEventSnapshot } from './event-commands.ts';
