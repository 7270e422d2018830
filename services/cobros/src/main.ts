import { runMain, stopOnSignals } from "@pasarela/service";
import { createLogger } from "@pasarela/telemetry";
import { loadConfig, startCobros } from "./index.js";

runMain("cobros", async () => {
  const config = loadConfig();
  const logger = createLogger({ service: "cobros", level: config.LOG_LEVEL });
  logger.info(
    { mercadopago: config.MERCADOPAGO_API_URL, publicUrl: config.COBROS_PUBLIC_URL },
    "payment provider",
  );
  const service = await startCobros(config, logger);
  stopOnSignals(logger, service.stop);
});
