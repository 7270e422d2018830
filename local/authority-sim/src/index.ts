import { chmodSync, renameSync, writeFileSync } from "node:fs";
import type { Server } from "node:net";
import type { AddressInfo } from "node:net";
import { pino, type Logger } from "pino";
import { loadConfig } from "./config.js";
import { PATHS, createSimulatorServer } from "./server.js";
import type { Environment } from "./state.js";

export { makeControlClient, ControlError } from "./control/client.js";
/** the CLI's commands (`npm run sim`), for tests that run each one's --help */
export { commands as cliCommands } from "./cli-commands.js";
export { runCli as runSimulatorCli, UsageError } from "./cli.js";
export type {
  ControlClient,
  FaultInput,
  PersonInput,
  SettingsInput,
  SimCaeaVoucher,
  SimCaeas,
  SimExportVoucher,
  SimExportVouchers,
  Stats,
} from "./control/client.js";
export {
  CONDICIONES_PADRON,
  EMISION_TIPOS,
  ENVIRONMENTS,
  FAULT_MODES,
  FAULT_SERVICES,
  PADRON_SERVICES,
  WSN_SERVICES,
} from "./state.js";
export type {
  CondicionPadron,
  EmisionTipo,
  Environment,
  FaultMode,
  FaultService,
  PadronService,
  WsnService,
} from "./state.js";
export { isValidCuit } from "./cuit.js";
export { PATHS } from "./server.js";

export interface SimulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** JSON file to persist state to (loaded at start, rewritten after each mutation). */
  stateFile?: string;
  logger?: Logger;
  /** Upper bound for fault mode `timeout`; default 120 s. */
  timeoutHoldMs?: number;
  /** Also serve HTTPS on this port (0 picks a free one); none by default. */
  httpsPort?: number;
  /** Names the HTTPS certificate covers besides localhost, 127.0.0.1 and ::1. */
  tlsNames?: readonly string[];
  /** Writes the PEM of the HTTPS port's CA here at start (for AUTHORITY_CA_FILE). */
  tlsCaFile?: string;
}

export type Scheme = "http" | "https";

export interface Endpoints {
  wsaa: string;
  wsfe: string;
  wsfex: string;
  /** the registry services (ws_sr_padron_a13, ws_sr_padron_a10, ws_sr_constancia_inscripcion) */
  padronA13: string;
  padronA10: string;
  constancia: string;
}

export interface Simulator {
  /** `http://host:port`; the control API is under `${url}/_control`. */
  url: string;
  /** `https://host:port` of the same app, when HTTPS is served. */
  httpsUrl: string | undefined;
  /** `http(s)://host:port/<environment>`; https only when HTTPS is served. */
  baseUrl(environment: Environment, scheme?: Scheme): string;
  endpoints(environment: Environment, scheme?: Scheme): Endpoints;
  /** PEM of the environment's CA certificate (the authority's CA for taxpayers). */
  caCertificate(environment: Environment): string;
  /** PEM of the CA behind the HTTPS certificate, when HTTPS is served. */
  tlsCaCertificate: string | undefined;
  close(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Write-then-rename: a gateway starting at the same time never reads half a PEM. */
function writePem(file: string, pem: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, pem);
  chmodSync(tmp, 0o644);
  renameSync(tmp, file);
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const host = options.host ?? "127.0.0.1";
  const sim = createSimulatorServer({
    stateFile: options.stateFile,
    logger: options.logger,
    timeoutHoldMs: options.timeoutHoldMs,
    tls: options.httpsPort === undefined ? undefined : { names: options.tlsNames ?? [] },
  });
  const tlsCa = sim.tlsCa;
  if (options.tlsCaFile !== undefined && tlsCa !== undefined) writePem(options.tlsCaFile, tlsCa);
  const origin = (scheme: Scheme, port: number): string =>
    `${scheme}://${host.includes(":") ? `[${host}]` : host}:${port}`;
  let url: string;
  let httpsUrl: string | undefined;
  try {
    url = origin("http", await listen(sim.server, options.port ?? 0, host));
    if (sim.httpsServer !== undefined) {
      httpsUrl = origin("https", await listen(sim.httpsServer, options.httpsPort ?? 0, host));
    }
  } catch (error) {
    await sim.shutdown();
    throw error;
  }
  const baseUrl = (environment: Environment, scheme: Scheme = "http"): string => {
    if (scheme === "http") return `${url}/${environment}`;
    if (httpsUrl === undefined) throw new Error("the simulator was started without httpsPort");
    return `${httpsUrl}/${environment}`;
  };
  return {
    url,
    httpsUrl,
    baseUrl,
    endpoints: (environment, scheme) => ({
      wsaa: `${baseUrl(environment, scheme)}${PATHS.wsaa}`,
      wsfe: `${baseUrl(environment, scheme)}${PATHS.wsfe}`,
      wsfex: `${baseUrl(environment, scheme)}${PATHS.wsfex}`,
      padronA13: `${baseUrl(environment, scheme)}${PATHS.padronA13}`,
      padronA10: `${baseUrl(environment, scheme)}${PATHS.padronA10}`,
      constancia: `${baseUrl(environment, scheme)}${PATHS.constancia}`,
    }),
    caCertificate: (environment) => sim.worlds[environment].state.ca.certPem,
    tlsCaCertificate: tlsCa,
    close: () => sim.shutdown(),
  };
}

/**
 * The simulator as `npm start` and docker-compose run it: its settings from the variables
 * (SIM_PORT, SIM_HTTPS_PORT, SIM_STATE_FILE, …; config.ts), its addresses logged once it listens.
 */
export async function startSimulatorFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ stop(): Promise<void> }> {
  const config = loadConfig(env);
  const logger = pino({ name: "authority-sim", level: config.SIM_LOG_LEVEL });
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
  return { stop: () => sim.close() };
}
