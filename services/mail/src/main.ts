import { runMain, stopOnSignals } from "@pasarela/service";
import { createLogger } from "@pasarela/telemetry";
import { loadConfig, startMail } from "./index.js";

runMain("mail", async () => {
  const config = loadConfig();
  const logger = createLogger({ service: "mail", level: config.LOG_LEVEL });
  // the URL may hold credentials: only where it points is logged
  const smtp = new URL(config.SMTP_URL);
  logger.info({ smtp: `${smtp.protocol}//${smtp.host}`, from: config.MAIL_FROM }, "SMTP relay");
  const service = await startMail(config, logger);
  stopOnSignals(logger, service.stop);
});
