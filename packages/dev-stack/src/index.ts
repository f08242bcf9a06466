// The development stack: where Postgres and NATS come from (provideInfrastructure, npm start's chooseStartInfrastructure)
// and the seven processes started from their builds (startStack). Plain `node` runs it as it is (type stripping):
// `npm start` imports it before anything is built.
export { ASSERTED_SERVICES, callerAssertionKeys } from './caller-assertion-keys.ts';
export { dropDatabase, recreateDatabase } from './databases.ts';
export { developmentKey } from './development-key.ts';
export { widgetDemoUrl } from './widget-demo.ts';
export { INFRA_MODES, infraMode, type InfraMode } from './infra-mode.ts';
export { checkInfrastructure } from './infrastructure-check.ts';
export { provideInfrastructure, type ProvidedServer } from './provide-infrastructure.ts';
export { startStack, type Stack } from './stack.ts';
export { chooseStartInfrastructure } from './start-infrastructure.ts';
export { serviceNodeFlags, startEnvSchema } from './start-env.ts';
export { deleteStreams } from './streams.ts';
