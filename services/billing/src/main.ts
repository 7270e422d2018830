import { runMain, stopOnSignals } from "@pasarela/service";
import { createLogger } from "@pasarela/telemetry";
import { loadConfig, startBilling } from "./index.js";

runMain("billing", async () => {
  const config = loadConfig();
  const logger = createLogger({ service: "billing", level: config.LOG_LEVEL });
  const service = await startBilling(config, logger);
  stopOnSignals(logger, service.stop);
});
