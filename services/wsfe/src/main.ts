import { runMain, stopOnSignals } from "@pasarela/service";
import { createLogger } from "@pasarela/telemetry";
import { loadConfig, startWsfe } from "./index.js";

runMain("wsfe", async () => {
  const config = loadConfig();
  const logger = createLogger({ service: "wsfe", level: config.LOG_LEVEL });
  logger.info(
    { homologacion: config.WSFE_URL_HOMOLOGACION, produccion: config.WSFE_URL_PRODUCCION },
    "WSFEv1 endpoints",
  );
  logger.info(
    { homologacion: config.WSFEX_URL_HOMOLOGACION, produccion: config.WSFEX_URL_PRODUCCION },
    "WSFEXv1 endpoints (export issuance)",
  );
  const service = await startWsfe(config, logger);
  stopOnSignals(logger, service.stop);
});
