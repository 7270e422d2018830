import type { ColumnType } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/**
 * The e-mail sent (or being sent) for a voucher issued through the gateway, keyed by the
 * full voucher tuple of  plus the account: another account's voucher never shows.
 */
export interface ComprobantesEmailTable {
  account_id: string;
  environment: "homologacion" | "produccion";
  cuit: string;
  pto_vta: number;
  cbte_tipo: number;
  // int8 comes back as a string from the driver; voucher numbers fit in a number
  cbte_nro: ColumnType<string, number, number>;
  email_to: string;
  status: string;
  error: string | null;
  updated_at: Timestamp;
}

/** States of a stored voucher; see the migration for what each one means. */
export type ComprobanteState =
  "pending" | "authorized" | "rejected" | "unknown" | "not_issued" | "conflict" | "caea_rechazado";

/** How a voucher issued under a CAEA stands with the authority (FECAEARegInformativo). */
export type CaeaEstado = "pendiente" | "informado" | "rechazado";

// postgres.js serializes jsonb parameters itself (it learns the type from the statement):
// values go in as objects, never as JSON text, or they are stored as a JSON string
type Json<T> = ColumnType<T, T, T>;
type Numeric = ColumnType<string, string, string>;

/** Every voucher wsfe sent, or was about to send, to FECAESolicitar. */
export interface ComprobantesTable {
  id: string;
  account_id: string;
  environment: "homologacion" | "produccion";
  cuit: string;
  pto_vta: number;
  cbte_tipo: number;
  cbte_nro: ColumnType<string, number, number>;
  state: ComprobanteState;
  concepto: number;
  cbte_fch: string;
  doc_tipo: number;
  doc_nro: ColumnType<string, string, string>;
  moneda_id: string;
  moneda_cotizacion: Numeric;
  imp_total: Numeric;
  imp_neto: Numeric;
  imp_iva: Numeric;
  imp_trib: Numeric;
  imp_tot_conc: Numeric;
  imp_op_ex: Numeric;
  request: Json<unknown>;
  sent: Json<unknown>;
  resultado: string | null;
  cae: string | null;
  cae_vencimiento: string | null;
  observaciones: ColumnType<unknown, unknown, unknown>;
  errores: ColumnType<unknown, unknown, unknown>;
  eventos: ColumnType<unknown, unknown, unknown>;
  failure: ColumnType<unknown, unknown, unknown>;
  email_to: string | null;
  idempotency_key: string | null;
  request_id: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  answered_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  event_published_at: ColumnType<
    Date | null,
    Date | string | null | undefined,
    Date | string | null
  >;
  /** until when a FECAESolicitar already sent with it may still reach the authority */
  in_flight_until: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** times reconciliation sent it again */
  resends: ColumnType<number, number | undefined, number>;
  tipo_autorizacion: ColumnType<"CAE" | "CAEA", "CAE" | "CAEA" | undefined, "CAE" | "CAEA">;
  /** null for a CAE voucher */
  caea_estado: CaeaEstado | null;
  caea_periodo: number | null;
  caea_orden: number | null;
  /** yyyymmddhhmmss (Argentina) when a CAEA voucher was generated */
  cbte_fch_hs_gen: string | null;
  caea_informado_at: ColumnType<
    Date | null,
    Date | string | null | undefined,
    Date | string | null
  >;
  caea_intentos: ColumnType<number, number | undefined, number>;
  caea_failure: ColumnType<unknown, unknown, unknown>;
  /** when the informing's event (caea_informado / caea_rechazado) reached JetStream */
  caea_evento_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** A CAEA point of sale declared without movement for a fortnight. */
export interface CaeaSinMovimientoTable {
  environment: "homologacion" | "produccion";
  cuit: string;
  periodo: number;
  orden: number;
  pto_vta: number;
  resultado: string;
  fch_proceso: string | null;
  errores: ColumnType<unknown, unknown, unknown>;
  informed_at: Timestamp;
}

/** A numbering unit of the authority and its writer lease (one issuer at a time). */
export interface SeriesTable {
  environment: "homologacion" | "produccion";
  cuit: string;
  pto_vta: number;
  cbte_tipo: number;
  writer_owner: string | null;
  writer_lease_until: ColumnType<
    Date | null,
    Date | string | null | undefined,
    Date | string | null
  >;
  needs_reconciliation: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The next FEXAuthorize request Id per CUIT and environment. */
export interface ExportacionIdsTable {
  environment: "homologacion" | "produccion";
  cuit: string;
  next_id: ColumnType<string, number, number>;
  updated_at: Timestamp;
}

/** An asynchronous issuance: the queue's row, see the migration. */
export interface EmisionesTable {
  id: string;
  account_id: string;
  environment: "homologacion" | "produccion";
  tipo: "factura" | "exportacion";
  idempotency_key: string | null;
  llave: string;
  fingerprint: ColumnType<string, string | undefined, string>;
  request: Json<Record<string, unknown>>;
  estado: ColumnType<
    "pendiente" | "autorizado" | "rechazado" | "no_emitido",
    "pendiente" | undefined,
    "pendiente" | "autorizado" | "rechazado" | "no_emitido"
  >;
  admitted: boolean;
  intentos: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp;
  last_error: Json<Record<string, unknown> | null>;
  answer: Json<Record<string, unknown> | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
  finished_at: ColumnType<Date | null, never, Date | string>;
}

/** A fortnight's CAEA of a CUIT: see the migration. */
export interface CaeasTable {
  environment: "homologacion" | "produccion";
  cuit: string;
  periodo: number;
  orden: number;
  caea_sealed: Buffer;
  fch_vig_desde: string;
  fch_vig_hasta: string;
  fch_tope_inf: string;
  fch_proceso: string;
  obtained_at: Timestamp;
}

/** A fortnight found without its CAEA, and whether its alert went out. */
export interface CaeaFaltantesTable {
  account_id: string;
  environment: "homologacion" | "produccion";
  cuit: string;
  periodo: number;
  orden: number;
  fch_vig_desde: string;
  fch_vig_hasta: string;
  created_at: Timestamp;
  avisado_at: Date | null;
}

/** A fortnight whose vouchers were still uninformed 48 h before FchTopeInf: alerted once. */
export interface CaeaInformeAvisosTable {
  account_id: string;
  environment: "homologacion" | "produccion";
  cuit: string;
  periodo: number;
  orden: number;
  avisado_at: Timestamp;
}

export interface WsfeDatabase {
  caea_informe_avisos: CaeaInformeAvisosTable;
  caeas: CaeasTable;
  caea_faltantes: CaeaFaltantesTable;
  caea_sin_movimiento: CaeaSinMovimientoTable;
  emisiones: EmisionesTable;
  exportacion_ids: ExportacionIdsTable;
  comprobantes_email: ComprobantesEmailTable;
  comprobantes: ComprobantesTable;
  series: SeriesTable;
}
