import { randomBytes } from "node:crypto";
import { chmodSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { REGISTRY_SEED, seededPersons } from "./padron/seed.js";
import type { Person } from "./registry-state.js";
import type { TlsState } from "./tls.js";

export { CONDICIONES_PADRON } from "./registry-state.js";
export type {
  CondicionPadron,
  Actividad,
  Domicilio,
  CategoriaMonotributo,
  PartialErrors,
  Person,
} from "./registry-state.js";

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

/** The registry (padrón) services, by their WSAA ids; each has its own endpoint and faults. */
export const PADRON_SERVICES = [
  "ws_sr_padron_a13",
  "ws_sr_padron_a10",
  "ws_sr_constancia_inscripcion",
] as const;
export type PadronService = (typeof PADRON_SERVICES)[number];

export const FAULT_SERVICES = ["wsaa", "wsfe", "wsfex", ...PADRON_SERVICES] as const;
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
  /**
   * Probability (0..1) that a request gets the fault; latency applies to every request unless
   * `latencyOperation` names one.
   */
  rate: number;
  latencyMs: number;
  /** When set, the mode applies to this SOAP operation only (e.g. FECAESolicitar). */
  operation?: string | undefined;
  /**
   * Further modes, each with its own probability, drawn together with `mode`: a request gets
   * `mode` with probability `rate`, else the first of these with its rate, and so on (their
   * rates add up to at most 1 with `rate`).
   */
  mix?: { mode: FaultMode; rate: number }[] | undefined;
  /** When set, each request waits a random time between `latencyMs` and this. */
  latencyMaxMs?: number | undefined;
  /** When set, the latency applies to this SOAP operation only (a slow FECAESolicitar). */
  latencyOperation?: string | undefined;
}

/**
 * What the simulator counted: WSAA logins per certificate and service, requests per operation,
 * faults injected per `operation mode`, and FECAESolicitar details by verdict.
 */
export interface SimStats {
  logins: Record<string, number>;
  requests: Record<string, number>;
  faults?: Record<string, number>;
  details?: { sent: number; authorized: number; rejected: number; largestBatch: number };
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
  /**
   * How a WSFEv1 point issues: CAE (online, FECAESolicitar) or CAEA (contingency, informed
   * with FECAEARegInformativo); absent means CAE.
   */
  emisionTipo?: EmisionTipo;
}

export const EMISION_TIPOS = ["CAE", "CAEA"] as const;
export type EmisionTipo = (typeof EMISION_TIPOS)[number];

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

export interface Comprador {
  docTipo: number;
  docNro: number;
  porcentaje: number;
}

/** PeriodoAsoc as sent: an empty string for a date left out. */
export interface PeriodoAsoc {
  fchDesde: string;
  fchHasta: string;
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

/**
 * An authorized WSFEv1 voucher, kept with the request fields FECompConsultar echoes and the
 * answer it got. Rejections consume no number, so only authorized vouchers are kept; a B-class
 * range is one voucher stored under each of its numbers.
 */
export interface FeVoucher extends FeDetailFields {
  cbteFch: string;
  monCotiz: number;
  condicionIvaReceptorId: number | null;
  cbtesAsoc: CbteAsoc[];
  tributos: Tributo[];
  iva: AlicIva[];
  opcionales: Opcional[];
  compradores: Comprador[];
  periodoAsoc: PeriodoAsoc | null;
  actividades: number[];
  resultado: "A";
  /** The non-blocking observations that came with the CAE (e.g. 10217). */
  observaciones: Pair[];
  /** The CAE, or for a voucher informed under a CAEA that CAEA. */
  cae: string;
  caeFchVto: string;
  fchProceso: string;
  /** absent for CAE vouchers */
  emisionTipo?: "CAEA";
  /** CAEA vouchers: when the voucher was generated, yyyymmddhhmmss ("" when not sent) */
  cbteFchHsGen?: string;
}

/** A CAEA granted for one fortnight (Orden 1: days 1 to 15, 2: 16 to the month's end). */
export interface CaeaGrant {
  cuit: string;
  caea: string;
  periodo: number;
  orden: 1 | 2;
  fchVigDesde: string;
  fchVigHasta: string;
  fchTopeInf: string;
  fchProceso: string;
}

/** A point of sale declared without movement under a CAEA (FECAEASinMovimientoInformar). */
export interface CaeaSinMovimiento {
  cuit: string;
  caea: string;
  ptoVta: number;
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
  /** CAEAs granted, keyed `cuit|periodo|orden`. */
  caeas: Record<string, CaeaGrant>;
  caeaSinMovimiento: CaeaSinMovimiento[];
  /** The registry (padrón), keyed by CUIT. */
  persons: Record<string, Person>;
  /** The version of the seeded registry this world has received (see padron/seed.ts). */
  registrySeed?: number;
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
  stats: SimStats;
}

export interface SimState {
  version: 1;
  envs: Record<Environment, EnvState>;
  /** The HTTPS port's CA and certificate, created the first time HTTPS is served. */
  tls?: TlsState;
}

const DEFAULT_COTIZACIONES: Readonly<Record<string, number>> = {
  DOL: 1050.5,
  "002": 1060,
  "060": 1130.25,
  "012": 190.4,
  "021": 1320.75,
};

function noFaults(): Record<FaultService, FaultConfig> {
  return Object.fromEntries(
    FAULT_SERVICES.map((service) => [service, { mode: "none", rate: 1, latencyMs: 0 }]),
  ) as Record<FaultService, FaultConfig>;
}

/** The WSFEv1 point of sale, once the control API enabled it. */
export function wsfePos(env: EnvState, cuit: string, ptoVta: number): PointOfSale | undefined {
  return env.pointsOfSale.find(
    (p) => p.cuit === cuit && p.ptoVta === ptoVta && p.service === "wsfe",
  );
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
  env.caeas = {};
  env.caeaSinMovimiento = [];
  env.persons = seededPersons();
  env.registrySeed = REGISTRY_SEED;
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
  for (const env of Object.values(parsed.envs)) upgrade(env);
  return parsed;
}

/** Fills what state files written by earlier versions of the simulator lack. */
function upgrade(env: EnvState): void {
  const older = env as Partial<EnvState>;
  // a world from before the registry, or from before its seed grew, gets the persons it lacks;
  // those it has (or had and forgot) since are its own
  if (older.persons === undefined || (env.registrySeed ?? 0) < REGISTRY_SEED) {
    env.persons = { ...seededPersons(), ...older.persons };
    env.registrySeed = REGISTRY_SEED;
  }
  // registry services came later: their faults start cleared
  const faults = noFaults();
  for (const service of FAULT_SERVICES) env.faults[service] ??= faults[service];
  // CAEA contingency came later: no CAEA granted yet
  older.caeas ??= {};
  older.caeaSinMovimiento ??= [];
  for (const series of Object.values(env.fe)) {
    for (const v of Object.values(series.vouchers)) {
      const o = v as Partial<FeVoucher>;
      o.compradores ??= [];
      o.periodoAsoc ??= null;
      o.actividades ??= [];
      o.resultado ??= "A";
      o.observaciones ??= [];
    }
  }
}

/**
 * Write-then-rename, so a crash mid-write never leaves a truncated state file. The state holds
 * the CAs' private keys: owner-only, whatever mode an earlier file or a leftover temp file had
 * (the rename replaces the old file, and `mode` applies only when a file is created).
 */
export function saveState(file: string, state: SimState): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(state), { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}
