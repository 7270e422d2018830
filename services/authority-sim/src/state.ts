import { randomBytes } from "node:crypto";
import { readFileSync, renameSync, writeFileSync } from "node:fs";

export const ENVIRONMENTS = ["homologacion", "produccion"] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export const WSN_SERVICES = [
  "wsfe",
  "wsfex",
  "ws_sr_padron_a13",
  "ws_sr_padron_a10",
  "ws_sr_constancia_inscripcion",
] as const;
export type WsnService = (typeof WSN_SERVICES)[number];

export const FAULT_SERVICES = ["wsaa", "wsfe", "wsfex"] as const;
export type FaultService = (typeof FAULT_SERVICES)[number];

export const FAULT_MODES = [
  "none",
  "error-501",
  "timeout",
  "drop-after-commit",
  "unavailable",
] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

export interface FaultConfig {
  mode: FaultMode;
  /** Probability (0..1) that a request gets the fault; latency applies to every request. */
  rate: number;
  latencyMs: number;
  /** When set, the mode applies to this SOAP operation only (e.g. FECAESolicitar). */
  operation?: string | undefined;
}

export interface Delegation {
  cuit: string;
  alias: string;
  service: WsnService;
}

export interface PointOfSale {
  cuit: string;
  ptoVta: number;
  service: "wsfe" | "wsfex";
  /** blocked at the authority (FEParamGetPtosVenta `Bloqueado` S); absent means N */
  bloqueado?: boolean;
  /** withdrawal date yyyymmdd (FEParamGetPtosVenta `FchBaja`); absent means NULL */
  fchBaja?: string;
}

export interface Pair {
  code: number;
  msg: string;
}

export interface CbteAsoc {
  tipo: number;
  ptoVta: number;
  nro: number;
  cuit: string;
  cbteFch: string;
}

export interface Tributo {
  id: number;
  desc: string;
  baseImp: number;
  alic: number;
  importe: number;
}

export interface AlicIva {
  id: number;
  baseImp: number;
  importe: number;
}

export interface Opcional {
  id: string;
  valor: string;
}

/** FECAEDetRequest fields stored exactly as read; the others get defaults when stored. */
export interface FeDetailFields {
  concepto: number;
  docTipo: number;
  docNro: number;
  cbteDesde: number;
  cbteHasta: number;
  impTotal: number;
  impTotConc: number;
  impNeto: number;
  impOpEx: number;
  impTrib: number;
  impIva: number;
  fchServDesde: string;
  fchServHasta: string;
  fchVtoPago: string;
  monId: string;
  canMisMonExt: string;
}

/** An authorized WSFEv1 voucher, kept with the request fields FECompConsultar echoes. */
export interface FeVoucher extends FeDetailFields {
  cbteFch: string;
  monCotiz: number;
  condicionIvaReceptorId: number | null;
  cbtesAsoc: CbteAsoc[];
  tributos: Tributo[];
  iva: AlicIva[];
  opcionales: Opcional[];
  cae: string;
  caeFchVto: string;
  fchProceso: string;
}

export interface FeSeries {
  last: number;
  lastFch: string;
  vouchers: Record<string, FeVoucher>;
}

export interface FexVoucher {
  id: number;
  cuit: string;
  cbteTipo: number;
  puntoVta: number;
  cbteNro: number;
  fechaCbte: string;
  cae: string;
  fchVencCae: string;
  /** The request fields FEXGetCMP echoes, already in response shape. */
  fields: Record<string, string>;
  itemsXml: string;
  permisosXml: string;
  cmpsAsocXml: string;
  opcionalesXml: string;
}

export interface EnvState {
  ca: { keyPem: string; certPem: string };
  /** Key for the TA `sign`, which the business services verify. */
  tokenSecret: string;
  settings: { enforceSingleTa: boolean; clockOffsetMs: number };
  delegations: Delegation[];
  pointsOfSale: PointOfSale[];
  /** (certificate fingerprint|service) → TA expiry, for the one-TA rule. */
  tas: Record<string, number>;
  fe: Record<string, FeSeries>;
  fex: {
    series: Record<string, { last: number; lastFch: string }>;
    vouchers: Record<string, FexVoucher>;
    byId: Record<string, string>;
    lastId: Record<string, number>;
  };
  /** Permits registered as non-existent: FEXCheck_Permiso answers NO for them. */
  deniedPermits: string[];
  cotizaciones: Record<string, number>;
  faults: Record<FaultService, FaultConfig>;
  stats: { logins: Record<string, number>; requests: Record<string, number> };
}

export interface SimState {
  version: 1;
  envs: Record<Environment, EnvState>;
}

const DEFAULT_COTIZACIONES: Readonly<Record<string, number>> = {
  DOL: 1050.5,
  "002": 1060,
  "060": 1130.25,
  "012": 190.4,
  "021": 1320.75,
};

function noFaults(): Record<FaultService, FaultConfig> {
  return {
    wsaa: { mode: "none", rate: 1, latencyMs: 0 },
    wsfe: { mode: "none", rate: 1, latencyMs: 0 },
    wsfex: { mode: "none", rate: 1, latencyMs: 0 },
  };
}

/** A point of sale exists for a service only once the control API enables it (point 1 too). */
export function isPosEnabled(
  env: EnvState,
  service: PointOfSale["service"],
  cuit: string,
  ptoVta: number,
): boolean {
  return env.pointsOfSale.some(
    (p) => p.cuit === cuit && p.ptoVta === ptoVta && p.service === service,
  );
}

/** Everything but the CA and token key, which survive a reset so issued certificates stay valid. */
export function resetWorld(env: EnvState): void {
  env.settings = { enforceSingleTa: true, clockOffsetMs: 0 };
  env.delegations = [];
  env.pointsOfSale = [];
  env.tas = {};
  env.fe = {};
  env.fex = { series: {}, vouchers: {}, byId: {}, lastId: {} };
  env.deniedPermits = [];
  env.cotizaciones = { ...DEFAULT_COTIZACIONES };
  env.faults = noFaults();
  env.stats = { logins: {}, requests: {} };
}

export function newEnvState(ca: EnvState["ca"]): EnvState {
  const env = { ca, tokenSecret: randomBytes(32).toString("hex") } as EnvState;
  resetWorld(env);
  return env;
}

export function loadState(file: string): SimState | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  const parsed = JSON.parse(text) as SimState;
  if (parsed.version !== 1) throw new Error(`SIM_STATE_FILE ${file}: unsupported version`);
  return parsed;
}

/** Write-then-rename, so a crash mid-write never leaves a truncated state file. */
export function saveState(file: string, state: SimState): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(state));
  renameSync(tmp, file);
}
