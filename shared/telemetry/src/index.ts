export { createLogger, type Logger, type LoggerSettings } from "./logger.js";
export { startTracing, type Tracing, type TracingSettings } from "./tracing.js";
export {
  counter,
  gauge,
  histogram,
  secondsSince,
  startMetricsServer,
  type MetricsServer,
} from "./metrics.js";
