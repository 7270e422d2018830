import { runMain, stopOnSignals } from "@pasarela/service";
import { createLogger } from "@pasarela/telemetry";
import { loadConfig, startPdf } from "./index.js";

runMain("pdf", async () => {
  const config = loadConfig();
  const logger = createLogger({ service: "pdf", level: config.LOG_LEVEL });
  logger.info(
    { storage: config.PDF_STORAGE_DIR, publicUrl: config.PDF_PUBLIC_URL },
    "pdf storage and links",
  );
  const service = await startPdf(config, { logger });
  stopOnSignals(logger, service.stop);
});
