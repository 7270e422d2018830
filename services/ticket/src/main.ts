import { runMain, stopOnSignals } from "@pasarela/service";
import { createLogger } from "@pasarela/telemetry";
import { loadConfig, startTicket } from "./index.js";

runMain("ticket", async () => {
  const config = loadConfig();
  const logger = createLogger({ service: "ticket", level: config.LOG_LEVEL });
  logger.info(
    {
      wsaa: { homologacion: config.WSAA_URL_HOMOLOGACION, produccion: config.WSAA_URL_PRODUCCION },
    },
    "authority endpoints",
  );
  const service = await startTicket(config, logger);
  stopOnSignals(logger, service.stop);
});
