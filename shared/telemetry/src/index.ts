export { createLogger, type Logger, type LoggerSettings } from "./logger.js";
export { startTracing, type Tracing, type TracingSettings } from "./tracing.js";
export {
  counter,
  gauge,
  histogram,
  secondsSince,
  startMetricsServer,
  type Counter,
  type Gauge,
  type GaugeOptions,
  type Histogram,
  type Labels,
  type MetricsServer,
} from "./metrics.js";
export { asService, currentService, nameProcess, processServiceName } from "./scope.js";
