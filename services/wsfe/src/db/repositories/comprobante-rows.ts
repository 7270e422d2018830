import type { Selectable } from "kysely";
import type { AuthorityMessage } from "../../domain/cae-answer.js";
import type { SentVoucher } from "../../domain/voucher-summary.js";
import type { CaeaEstado, ComprobanteState, ComprobantesTable } from "../database.js";
import type { SeriesKey } from "./series.js";

/** A voucher's row as the repositories answer it, and the states it has not left yet. */

/** Totals as decimal text with two decimals, exactly as sent. */
export interface Totales {
  readonly impTotal: string;
  readonly impNeto: string;
  readonly impIVA: string;
  readonly impTrib: string;
  readonly impTotConc: string;
  readonly impOpEx: string;
}

export interface StoredComprobante {
  readonly id: string;
  readonly accountId: string;
  readonly series: SeriesKey;
  readonly cbteNro: number;
  readonly state: ComprobanteState;
  readonly cbteFch: string;
  readonly docTipo: number;
  readonly docNro: string;
  readonly moneda: { readonly id: string; readonly cotizacion: string };
  readonly totales: Totales;
  readonly request: unknown;
  /** what the authority was sent: a FECAEDetRequest, or a ClsFEXRequest (export) */
  readonly sent: SentVoucher;
  readonly resultado: string | null;
  readonly cae: string | null;
  readonly caeVencimiento: string | null;
  readonly observaciones: readonly AuthorityMessage[];
  readonly errores: readonly AuthorityMessage[];
  readonly eventos: readonly AuthorityMessage[];
  readonly failure: unknown;
  readonly emailTo: string | null;
  readonly idempotencyKey: string | null;
  readonly requestId: string;
  readonly answeredAt: Date | null;
  readonly eventPublishedAt: Date | null;
  /** times reconciliation sent it again */
  readonly resends: number;
  /** CAE: its own; CAEA: issued in contingency under the fortnight's CAEA (held in `cae`) */
  readonly tipoAutorizacion: "CAE" | "CAEA";
  /** a CAEA voucher: its CAEA's fortnight and how its informing stands; undefined for CAE */
  readonly caea?: {
    readonly estado: CaeaEstado;
    readonly periodo: number;
    readonly orden: number;
    /** yyyymmddhhmmss (Argentina) */
    readonly cbteFchHsGen: string;
    readonly informadoAt: Date | null;
    readonly intentos: number;
    readonly failure: unknown;
  };
}

/** The states a voucher has not left yet: stored before sending, or sent without an answer. */
export const UNRESOLVED: readonly ComprobanteState[] = ["pending", "unknown"];

const messages = (value: unknown): AuthorityMessage[] =>
  Array.isArray(value) ? (value as AuthorityMessage[]) : [];

export function toStored(row: Selectable<ComprobantesTable>): StoredComprobante {
  return {
    id: row.id,
    accountId: row.account_id,
    series: {
      environment: row.environment,
      cuit: row.cuit,
      ptoVta: row.pto_vta,
      cbteTipo: row.cbte_tipo,
    },
    cbteNro: Number(row.cbte_nro),
    state: row.state,
    cbteFch: row.cbte_fch,
    docTipo: row.doc_tipo,
    docNro: row.doc_nro,
    moneda: { id: row.moneda_id, cotizacion: row.moneda_cotizacion },
    totales: {
      impTotal: row.imp_total,
      impNeto: row.imp_neto,
      impIVA: row.imp_iva,
      impTrib: row.imp_trib,
      impTotConc: row.imp_tot_conc,
      impOpEx: row.imp_op_ex,
    },
    request: row.request,
    sent: row.sent as SentVoucher,
    resultado: row.resultado,
    cae: row.cae,
    caeVencimiento: row.cae_vencimiento,
    observaciones: messages(row.observaciones),
    errores: messages(row.errores),
    eventos: messages(row.eventos),
    failure: row.failure,
    emailTo: row.email_to,
    idempotencyKey: row.idempotency_key,
    requestId: row.request_id,
    answeredAt: row.answered_at,
    eventPublishedAt: row.event_published_at,
    resends: row.resends,
    tipoAutorizacion: row.tipo_autorizacion,
    ...(row.tipo_autorizacion === "CAEA" &&
    row.caea_estado !== null &&
    row.caea_periodo !== null &&
    row.caea_orden !== null &&
    row.cbte_fch_hs_gen !== null
      ? {
          caea: {
            estado: row.caea_estado,
            periodo: row.caea_periodo,
            orden: row.caea_orden,
            cbteFchHsGen: row.cbte_fch_hs_gen,
            informadoAt: row.caea_informado_at,
            intentos: row.caea_intentos,
            failure: row.caea_failure,
          },
        }
      : {}),
  };
}
