import { runMain, stopOnSignals } from "@pasarela/service";
import { createLogger } from "@pasarela/telemetry";
import { loadConfig, startCatalog } from "./index.js";

runMain("catalog", async () => {
  const config = loadConfig();
  const logger = createLogger({ service: "catalog", level: config.LOG_LEVEL });
  const service = await startCatalog(config, logger);
  stopOnSignals(logger, service.stop);
});
