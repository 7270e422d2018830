import { runMain, stopOnSignals } from "@pasarela/service";
import { createLogger } from "@pasarela/telemetry";
import { loadConfig, startWebhooks } from "./index.js";

runMain("webhooks", async () => {
  const config = loadConfig();
  const logger = createLogger({ service: "webhooks", level: config.LOG_LEVEL });
  if (config.WEBHOOKS_ALLOW_PRIVATE) {
    logger.warn("WEBHOOKS_ALLOW_PRIVATE: endpoints on internal networks are accepted");
  }
  const service = await startWebhooks(config, logger);
  stopOnSignals(logger, service.stop);
});
