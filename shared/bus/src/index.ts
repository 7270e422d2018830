export {
  bind,
  type AccountContext,
  type ContextOf,
  connectBus,
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
  consumeEvents,
  type ConsumedEvent,
  type ConsumeOptions,
  type DurableConsumer,
  filterOf,
} from "./consumer.js";
export {
  consumeEachEvent,
  consumeJobs,
  done,
  ensureJobStream,
  jobStreamName,
  type DeliveryInfo,
  type Durable,
  type DurableOutcome,
} from "./durable.js";
export { durablesOf, type DurableRef } from "./durables.js";
export { defaultLiveness, livenessOf, type Liveness } from "./liveness.js";
