export {
  bind,
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
