import { runMain, stopOnSignals } from "@pasarela/service";
import { createLogger } from "@pasarela/telemetry";
import { loadConfig, startWsfex } from "./index.js";

runMain("wsfex", async () => {
  const config = loadConfig();
  const logger = createLogger({ service: "wsfex", level: config.LOG_LEVEL });
  logger.info(
    { homologacion: config.WSFEX_URL_HOMOLOGACION, produccion: config.WSFEX_URL_PRODUCCION },
    "WSFEXv1 endpoints",
  );
  const service = await startWsfex(config, logger);
  stopOnSignals(logger, service.stop);
});
