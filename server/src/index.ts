export {
  ALL,
  gatewayServices,
  isServiceName,
  parseTargets,
  stagesOf,
  type ServiceName,
} from "./services.js";
