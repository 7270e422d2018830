import type {
  CondicionPadron,
  EmisionTipo,
  Environment,
  FaultMode,
  FaultService,
  WsnService,
} from "../state.js";

export interface Stats {
  logins: Record<string, number>;
  requests: Record<string, number>;
  /** injected faults per `<operation> <mode>` */
  faults?: Record<string, number>;
  /** FECAESolicitar details: sent, authorized, rejected, and the most in one request */
  details?: { sent: number; authorized: number; rejected: number; largestBatch: number };
  total: number;
}

/** One WSFEv1 voucher the simulator holds. */
export interface SimVoucher {
  cbteNro: number;
  cae: string;
  cbteFch: string;
  docTipo: number;
  docNro: number;
  impTotal: number;
}

/** Every series of WSFEv1 vouchers, keyed `cuit|ptoVta|cbteTipo`. */
export interface SimVouchers {
  series: Record<string, { last: number; vouchers: SimVoucher[] }>;
}

/** A voucher informed under a CAEA (FECAEARegInformativo). */
export interface SimCaeaVoucher {
  ptoVta: number;
  cbteTipo: number;
  cbteNro: number;
  cbteFch: string;
  /** when it was generated, yyyymmddhhmmss */
  cbteFchHsGen: string;
  docTipo: number;
  docNro: number;
  impTotal: number;
  /** when it was informed, yyyymmddhhmmss */
  fchProceso: string;
}

/** The CAEAs granted to one CUIT, oldest period first. */
export interface SimCaeas {
  caeas: {
    caea: string;
    periodo: number;
    orden: 1 | 2;
    fchVigDesde: string;
    fchVigHasta: string;
    /** the last day its vouchers may be informed */
    fchTopeInf: string;
    fchProceso: string;
    vouchers: SimCaeaVoucher[];
    /** points of sale declared without movement under it (FECAEASinMovimientoInformar) */
    sinMovimiento: { ptoVta: number; fchProceso: string }[];
  }[];
}

/** One WSFEXv1 (export) voucher the simulator holds; `id` is the request Id it came with. */
export interface SimExportVoucher {
  cbteNro: number;
  id: number;
  cae: string;
  fechaCbte: string;
  monedaId: string;
  impTotal: number;
}

/** Every series of WSFEXv1 vouchers, keyed `cuit|ptoVta|cbteTipo`, in the order issued. */
export interface SimExportVouchers {
  series: Record<string, { last: number; vouchers: SimExportVoucher[] }>;
}

export interface FaultInput {
  service: FaultService;
  mode: FaultMode;
  rate?: number;
  latencyMs?: number;
  /** each request waits a random time between latencyMs and this */
  latencyMaxMs?: number;
  /** the mode hits this SOAP operation only; latency still applies to every request */
  operation?: string;
  /** the latency applies to this SOAP operation only */
  latencyOperation?: string;
  /** further modes with their own rates, drawn after `mode` */
  mix?: { mode: FaultMode; rate: number }[];
}

export interface SettingsInput {
  /** false lets a certificate obtain a new TA while one is still valid. */
  enforceSingleTa?: boolean;
  /** Shifts the environment's clock (ms), e.g. to expire TAs without waiting 12 h. */
  clockOffsetMs?: number;
}

/** A person of the registry (padrón); see `Person` in state.ts. */
export interface PersonInput {
  cuit: string;
  /** Default: JURIDICA for CUITs starting 30, 33 or 34, FISICA otherwise. */
  tipoPersona?: "FISICA" | "JURIDICA";
  /** Required for JURIDICA. */
  razonSocial?: string;
  /** Required for FISICA. */
  apellido?: string;
  nombre?: string;
  /** Default ACTIVO. */
  estadoClave?: "ACTIVO" | "INACTIVO";
  condicionIva: CondicionPadron;
  /** In order: the first is the main activity (Orden 1); `periodo` is yyyymm. */
  actividades?: { id: number; desc: string; periodo?: number }[];
  /** Default CUIT. */
  tipoClave?: "CUIT" | "CUIL" | "CDI";
  /** FISICA: the identity document (`tipo` defaults to DNI). */
  documento?: { tipo?: string; numero: string };
  /** yyyy-mm-dd */
  fechaNacimiento?: string;
  /** yyyy-mm-dd */
  fechaContratoSocial?: string;
  formaJuridica?: string;
  mesCierre?: number;
  /** Every address; the constancia shows the FISCAL one. */
  domicilios?: {
    tipoDomicilio?: "FISCAL" | "LEGAL/REAL";
    direccion: string;
    calle?: string;
    numero?: number;
    piso?: string;
    oficinaDptoLocal?: string;
    localidad?: string;
    codigoPostal: string;
    idProvincia: number;
    descripcionProvincia: string;
    datoAdicional?: string;
    tipoDatoAdicional?: string;
  }[];
  /** A monotributista's category; without one the constancia reports `errorMonotributo`. */
  categoriaMonotributo?: { idCategoria: number; descripcionCategoria: string; periodo: number };
  /** Earlier keys of this person, now inactive. */
  clavesInactivas?: string[];
  /** Partial-data errors of the constancia: the whole record, or one block. */
  errores?: { constancia?: string[]; monotributo?: string[]; regimenGeneral?: string[] };
}

/** Typed client for the simulator's control API (used by the CLI and other packages' tests). */
export interface ControlClient {
  health(): Promise<{ ok: true }>;
  /** PEM of the CA behind the simulator's HTTPS certificate: what a client must trust. */
  tlsCaCertificate(): Promise<string>;
  caCertificate(environment: Environment): Promise<string>;
  issueCertificate(environment: Environment, csrPem: string): Promise<string>;
  delegate(
    environment: Environment,
    input: { cuit: string; alias: string; service: WsnService },
  ): Promise<{ ok: true }>;
  /**
   * Withdraws a delegation: the next login no longer gets it (`removed` is false when there
   * was none); a TA already issued keeps its relations.
   */
  undelegate(
    environment: Environment,
    input: { cuit: string; alias: string; service: WsnService },
  ): Promise<{ ok: true; removed: boolean }>;
  /**
   * Declares a point of sale, or sets its state again: blocked, or withdrawn on `fchBaja`. A
   * WSFEv1 point issues with CAE unless `emisionTipo` is CAEA (contingency: it informs with
   * FECAEARegInformativo and cannot use FECAESolicitar).
   */
  enablePointOfSale(
    environment: Environment,
    input: {
      cuit: string;
      ptoVta: number;
      service?: "wsfe" | "wsfex";
      bloqueado?: boolean;
      fchBaja?: string;
      emisionTipo?: EmisionTipo;
    },
  ): Promise<{ ok: true }>;
  setFault(environment: Environment, input: FaultInput): Promise<{ ok: true }>;
  stats(environment: Environment): Promise<Stats>;
  /** every WSFEv1 voucher the simulator holds, per series */
  vouchers(environment: Environment): Promise<SimVouchers>;
  exportVouchers(environment: Environment): Promise<SimExportVouchers>;
  /** the CAEAs granted to a CUIT, with the vouchers informed and the points without movement */
  caeas(environment: Environment, cuit: string): Promise<SimCaeas>;
  reset(environment: Environment): Promise<{ ok: true }>;
  settings(environment: Environment, input: SettingsInput): Promise<{ ok: true }>;
  forgetTas(environment: Environment): Promise<{ ok: true }>;
  setCotizacion(
    environment: Environment,
    input: { monId: string; cotiz: number },
  ): Promise<{ ok: true }>;
  setPermit(
    environment: Environment,
    input: { idPermiso: string; dstMerc: number; status: "OK" | "NO" },
  ): Promise<{ ok: true }>;
  /** Registers a person in the registry, or replaces its record. */
  setPerson(environment: Environment, input: PersonInput): Promise<{ ok: true }>;
  /** Takes a person out of the registry (`removed` is false when it was not there). */
  forgetPerson(
    environment: Environment,
    input: { cuit: string },
  ): Promise<{ ok: true; removed: boolean }>;
}

export class ControlError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export function makeControlClient(baseUrl: string): ControlClient {
  const root = baseUrl.replace(/\/+$/, "");
  async function call<T>(
    method: "GET" | "POST" | "DELETE",
    path: string,
    body?: unknown,
  ): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${root}/_control${path}`, {
        method,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      // fetch only says "fetch failed"; the cause names the socket error
      const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
      const reason = typeof cause?.code === "string" ? cause.code : String(cause?.message ?? error);
      throw new ControlError(`the simulator does not answer at ${root} (${reason})`, 0);
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ControlError(`control API answered ${res.status} with non-JSON body`, res.status);
    }
    if (!res.ok) {
      const message =
        typeof parsed === "object" && parsed !== null && "error" in parsed
          ? String(parsed.error)
          : `HTTP ${res.status}`;
      throw new ControlError(message, res.status);
    }
    return parsed as T;
  }
  return {
    health: () => call("GET", "/health"),
    tlsCaCertificate: async () =>
      (await call<{ certificate: string }>("GET", "/tls-ca")).certificate,
    caCertificate: async (env) =>
      (await call<{ certificate: string }>("GET", `/${env}/ca`)).certificate,
    issueCertificate: async (env, csr) =>
      (await call<{ certificate: string }>("POST", `/${env}/cert`, { csr })).certificate,
    delegate: (env, input) => call("POST", `/${env}/delegations`, input),
    undelegate: (env, input) => call("DELETE", `/${env}/delegations`, input),
    enablePointOfSale: (env, input) => call("POST", `/${env}/pos`, input),
    setFault: (env, input) => call("POST", `/${env}/faults`, input),
    stats: (env) => call("GET", `/${env}/stats`),
    vouchers: (env) => call("GET", `/${env}/vouchers`),
    exportVouchers: (env) => call("GET", `/${env}/export-vouchers`),
    caeas: (env, cuit) => call("GET", `/${env}/caeas/${encodeURIComponent(cuit)}`),
    reset: (env) => call("POST", `/${env}/reset`, {}),
    settings: (env, input) => call("POST", `/${env}/settings`, input),
    forgetTas: (env) => call("POST", `/${env}/forget-tas`, {}),
    setCotizacion: (env, input) => call("POST", `/${env}/cotizaciones`, input),
    setPermit: (env, input) => call("POST", `/${env}/permits`, input),
    setPerson: (env, input) => call("POST", `/${env}/persons`, input),
    forgetPerson: (env, input) => call("DELETE", `/${env}/persons`, input),
  };
}
