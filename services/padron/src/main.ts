import { runMain, stopOnSignals } from "@pasarela/service";
import { createLogger } from "@pasarela/telemetry";
import { loadConfig, startPadron } from "./index.js";

runMain("padron", async () => {
  const config = loadConfig();
  const logger = createLogger({ service: "padron", level: config.LOG_LEVEL });
  logger.info(
    {
      homologacion: {
        a13: config.PADRON_A13_URL_HOMOLOGACION,
        a10: config.PADRON_A10_URL_HOMOLOGACION,
        constancia: config.PADRON_CONSTANCIA_URL_HOMOLOGACION,
      },
      produccion: {
        a13: config.PADRON_A13_URL_PRODUCCION,
        a10: config.PADRON_A10_URL_PRODUCCION,
        constancia: config.PADRON_CONSTANCIA_URL_PRODUCCION,
      },
    },
    "registry endpoints",
  );
  const service = await startPadron(config, logger);
  stopOnSignals(logger, service.stop);
});
