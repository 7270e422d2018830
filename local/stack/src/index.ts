export {
  binaryPath,
  ensureDatabase,
  freePort,
  natsAnswers,
  postgresAnswers,
  startPrivateNats,
  startPrivatePostgres,
  tcpAnswers,
  type Running,
} from "@pasarela/servers";
export {
  LOCAL_NATS_URL,
  LOCAL_POSTGRES_URL,
  localDatabase,
  localNats,
  localSecrets,
  localStackOptions,
  type LocalDatabase,
  type LocalNats,
  type LocalSettings,
  type LocalStackInput,
} from "./local.js";
export { simulatorAuthorityEnv } from "./authority-env.js";
export { startPrivateNatsCluster, type NatsNode, type RunningCluster } from "./nats-cluster.js";
export {
  defaultSupervision,
  GATEWAY_PROCESS,
  gatewayServices,
  restartDelay,
  startStack,
  type Stack,
  type StackOptions,
  type Supervision,
  type Topology,
} from "./stack.js";
