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
  gatewayServices,
  simulatorAuthorityEnv,
  startStack,
  type Stack,
  type StackOptions,
} from "./stack.js";
