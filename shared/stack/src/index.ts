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
} from "./infra.js";
export {
  defaultSupervision,
  gatewayServices,
  restartDelay,
  simulatorAuthorityEnv,
  startStack,
  type Stack,
  type StackOptions,
  type Supervision,
} from "./stack.js";
