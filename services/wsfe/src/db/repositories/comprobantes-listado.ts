import { sql, type ExpressionBuilder, type Expression, type SqlBool, type Kysely } from "kysely";
import type { CaeaEstado, ComprobanteState, WsfeDatabase } from "../database.js";

export type ListadoEstado =
  "authorized" | "rejected" | "pending" | "caea_pendiente" | "caea_rechazado";

type Row = ExpressionBuilder<WsfeDatabase & { c: WsfeDatabase["comprobantes"] }, "c">;

/**
 * Which stored rows each state of the list stands for. A CAEA voucher is stored `authorized`
 * from its issuance: it lists as `caea_pendiente` until the authority accepted it.
 */
const STATES: Record<ListadoEstado, (eb: Row) => Expression<SqlBool>> = {
  authorized: (eb) =>
    eb.and([
      eb("c.state", "=", "authorized"),
      eb.or([eb("c.caea_estado", "is", null), eb("c.caea_estado", "=", "informado")]),
    ]),
  rejected: (eb) => eb("c.state", "=", "rejected"),
  pending: (eb) => eb("c.state", "in", ["pending", "unknown"]),
  caea_pendiente: (eb) =>
    eb.and([eb("c.state", "=", "authorized"), eb("c.caea_estado", "=", "pendiente")]),
  caea_rechazado: (eb) => eb("c.state", "=", "caea_rechazado"),
};

/** Every stored state the list shows: all but attempts that never reached a number. */
const LISTED: ComprobanteState[] = [
  "authorized",
  "rejected",
  "pending",
  "unknown",
  "caea_rechazado",
];

/** The states whose e-mail record is joined: vouchers the customer was handed. */
const HANDED: ComprobanteState[] = ["authorized", "caea_rechazado"];

export interface ListadoFilter {
  readonly accountId: string;
  readonly environment: "homologacion" | "produccion";
  readonly cuit?: string | undefined;
  readonly ptoVta?: number | undefined;
  readonly cbteTipo?: number | undefined;
  readonly desde?: string | undefined;
  readonly hasta?: string | undefined;
  readonly state?: ListadoEstado | undefined;
  /** the last row of the previous page: `created_at` as exact text, and its id */
  readonly after?: { readonly createdAt: string; readonly id: string } | undefined;
  readonly limit: number;
}

export interface ListadoRow {
  id: string;
  state: ComprobanteState;
  environment: "homologacion" | "produccion";
  cuit: string;
  pto_vta: number;
  cbte_tipo: number;
  cbte_nro: string;
  cbte_fch: string;
  doc_tipo: number;
  doc_nro: string;
  razon_social: string | null;
  imp_total: string;
  moneda_id: string;
  cae: string | null;
  cae_vencimiento: string | null;
  tipo_autorizacion: "CAE" | "CAEA";
  caea_estado: CaeaEstado | null;
  caea_informado_at: Date | null;
  email_to: string | null;
  email_status: string | null;
  email_error: string | null;
  /** the authority's errors and observations, read for rejected attempts and CAEA refusals */
  errores: unknown;
  observaciones: unknown;
  /** created_at in UTC with microseconds: the keyset position, exactly */
  created_at_key: string;
  created_at: Date;
}

/** The dashboard's list of vouchers, over comprobantes_account_listado_idx. */
export function makeComprobantesListadoRepository(db: Kysely<WsfeDatabase>) {
  return {
    /** `limit` rows of the filter, newest first; the e-mail of authorized ones joined. */
    list(filter: ListadoFilter): Promise<ListadoRow[]> {
      let query = db
        .selectFrom("comprobantes as c")
        .leftJoin("comprobantes_email as e", (join) =>
          join
            .onRef("e.account_id", "=", "c.account_id")
            .onRef("e.environment", "=", "c.environment")
            .onRef("e.cuit", "=", "c.cuit")
            .onRef("e.pto_vta", "=", "c.pto_vta")
            .onRef("e.cbte_tipo", "=", "c.cbte_tipo")
            .onRef("e.cbte_nro", "=", "c.cbte_nro")
            .on("c.state", "in", HANDED),
        )
        .select([
          "c.id",
          "c.state",
          "c.environment",
          "c.cuit",
          "c.pto_vta",
          "c.cbte_tipo",
          "c.cbte_nro",
          "c.cbte_fch",
          "c.doc_tipo",
          "c.doc_nro",
          // an export voucher keeps its foreign customer's name under `cliente`
          sql<
            string | null
          >`coalesce(c.request -> 'receptor' ->> 'razonSocial', c.request -> 'cliente' ->> 'razonSocial')`.as(
            "razon_social",
          ),
          sql<string>`c.imp_total::text`.as("imp_total"),
          "c.moneda_id",
          "c.cae",
          "c.cae_vencimiento",
          "c.tipo_autorizacion",
          "c.caea_estado",
          "c.caea_informado_at",
          "e.email_to",
          "e.status as email_status",
          "e.error as email_error",
          "c.errores",
          "c.observaciones",
          sql<string>`to_char(c.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as(
            "created_at_key",
          ),
          "c.created_at",
        ])
        .where("c.account_id", "=", filter.accountId)
        .where("c.environment", "=", filter.environment)
        .where(filter.state ? STATES[filter.state] : (eb) => eb("c.state", "in", LISTED));
      if (filter.cuit !== undefined) query = query.where("c.cuit", "=", filter.cuit);
      if (filter.ptoVta !== undefined) query = query.where("c.pto_vta", "=", filter.ptoVta);
      if (filter.cbteTipo !== undefined) query = query.where("c.cbte_tipo", "=", filter.cbteTipo);
      if (filter.desde !== undefined) query = query.where("c.cbte_fch", ">=", filter.desde);
      if (filter.hasta !== undefined) query = query.where("c.cbte_fch", "<=", filter.hasta);
      if (filter.after) {
        const { createdAt, id } = filter.after;
        query = query.where(
          sql<boolean>`(c.created_at, c.id) < (${createdAt}::timestamptz, ${id}::uuid)`,
        );
      }
      return query
        .orderBy("c.created_at", "desc")
        .orderBy("c.id", "desc")
        .limit(filter.limit)
        .execute();
    },
  };
}

export type ComprobantesListadoRepository = ReturnType<typeof makeComprobantesListadoRepository>;
