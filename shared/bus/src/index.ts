export {
  bind,
  type AccountContext,
  type ContextOf,
  connectBus,
  natsServers,
  type Binding,
  type Bus,
  type BusOptions,
  type Handler,
  type HandlerContext,
  type RequestOptions,
  type Served,
  type ServeOptions,
} from "./bus.js";
export {
  consumeDurable,
  done,
  ensureJobStream,
  filterOf,
  jobStreamName,
  type Delivered,
  type DeliveryInfo,
  type Durable,
  type DurableOptions,
  type DurableOutcome,
} from "./durable.js";
export { durablesOf, type DurableRef } from "./durables.js";
export { defaultLiveness, livenessOf, type Liveness } from "./liveness.js";
