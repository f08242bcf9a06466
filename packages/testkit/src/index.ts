export type { ContainerOptions } from './container-options.js';
export { imageFor } from './images.js';
export { PortForwarder } from './port-forwarder.js';
export { waitForNats } from './nats-ready.js';
export { isReachable } from './tcp-probe.js';
export { startPostgresContainer, type StartedPostgres } from './postgres-container.js';
export { startNatsContainer, type NatsContainerOptions, type StartedNats } from './nats-container.js';
export { startSystem, type ServiceName, type StartedSystem, type SystemOptions } from './start-system.js';
export { serviceDatabaseEnv, serviceRoleName } from './database-roles.js';
export {
  containerEngineAnswers,
  keptNatsContainer,
  keptPostgresContainer,
  KEPT_CONTAINER_NAMES,
  type KeptContainer,
} from './kept-containers.js';
