import { runMain, stopOnSignals } from "@pasarela/service";
import { createLogger } from "@pasarela/telemetry";
import { loadConfig, startEdge } from "./index.js";

runMain("edge", async () => {
  const config = loadConfig();
  const logger = createLogger({ service: "edge", level: config.LOG_LEVEL });
  const edge = await startEdge(config, logger);
  stopOnSignals(logger, edge.stop);
});
