import type { AddressInfo } from "node:net";
import type { Logger } from "pino";
import { PATHS, createSimulatorServer } from "./server.js";
import type { Environment } from "./state.js";

export { makeControlClient, ControlError } from "./control/client.js";
export type { ControlClient, FaultInput, SettingsInput, Stats } from "./control/client.js";
export { ENVIRONMENTS, FAULT_MODES, FAULT_SERVICES, WSN_SERVICES } from "./state.js";
export type { Environment, FaultMode, FaultService, WsnService } from "./state.js";
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
}

export interface Endpoints {
  wsaa: string;
  wsfe: string;
  wsfex: string;
}

export interface Simulator {
  /** `http://host:port`; the control API is under `${url}/_control`. */
  url: string;
  /** `http://host:port/<environment>`. */
  baseUrl(environment: Environment): string;
  endpoints(environment: Environment): Endpoints;
  /** PEM of the environment's CA certificate. */
  caCertificate(environment: Environment): string;
  close(): Promise<void>;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const host = options.host ?? "127.0.0.1";
  const sim = createSimulatorServer({
    stateFile: options.stateFile,
    logger: options.logger,
    timeoutHoldMs: options.timeoutHoldMs,
  });
  await new Promise<void>((resolve, reject) => {
    sim.server.once("error", reject);
    sim.server.listen(options.port ?? 0, host, () => {
      sim.server.off("error", reject);
      resolve();
    });
  });
  const { port } = sim.server.address() as AddressInfo;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  const baseUrl = (environment: Environment): string => `${url}/${environment}`;
  return {
    url,
    baseUrl,
    endpoints: (environment) => ({
      wsaa: `${baseUrl(environment)}${PATHS.wsaa}`,
      wsfe: `${baseUrl(environment)}${PATHS.wsfe}`,
      wsfex: `${baseUrl(environment)}${PATHS.wsfex}`,
    }),
    caCertificate: (environment) => sim.worlds[environment].state.ca.certPem,
    close: () => sim.shutdown(),
  };
}
