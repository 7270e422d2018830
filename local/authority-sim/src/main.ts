import { pino } from "pino";
import { loadConfig } from "./config.js";
import { startSimulator } from "./index.js";

const logger = pino({ name: "authority-sim" });

async function main(): Promise<void> {
  const config = loadConfig();
  logger.level = config.SIM_LOG_LEVEL;
  const sim = await startSimulator({
    port: config.SIM_PORT,
    host: config.SIM_HOST,
    logger,
    ...(config.SIM_STATE_FILE === undefined ? {} : { stateFile: config.SIM_STATE_FILE }),
    ...(config.SIM_HTTPS_PORT === undefined
      ? {}
      : { httpsPort: config.SIM_HTTPS_PORT, tlsNames: config.SIM_TLS_NAMES }),
    ...(config.SIM_TLS_CA_FILE === undefined ? {} : { tlsCaFile: config.SIM_TLS_CA_FILE }),
  });
  logger.info(
    {
      url: sim.url,
      httpsUrl: sim.httpsUrl,
      tlsCaFile: sim.httpsUrl === undefined ? undefined : config.SIM_TLS_CA_FILE,
      homologacion: sim.baseUrl("homologacion"),
      produccion: sim.baseUrl("produccion"),
    },
    "authority simulator listening",
  );
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "stopping");
    sim.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, "error while stopping");
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

main().catch((error: unknown) => {
  logger.fatal({ err: error }, error instanceof Error ? error.message : "failed to start");
  process.exit(1);
});
