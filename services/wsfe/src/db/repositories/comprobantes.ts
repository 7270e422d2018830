import { isUniqueViolation } from "@pasarela/db";
import { sql, type Kysely, type Selectable } from "kysely";
import type { AuthorityMessage } from "../../domain/cae-answer.js";
import type { SentVoucher, VoucherSummary } from "../../domain/voucher-summary.js";
import type { ComprobantesTable, WsfeDatabase } from "../database.js";
import { leaseHeld, msFromNow } from "./lease-fence.js";
import type { LeaseFence, SeriesKey } from "./series.js";
import { makeSendsRepository } from "./sends.js";
import { makeComprobanteReads } from "./comprobante-reads.js";
import { toStored, UNRESOLVED, type StoredComprobante } from "./comprobante-rows.js";

export type { StoredComprobante, Totales } from "./comprobante-rows.js";

/** A voucher about to be sent: stored `pending` with its number first. */
export interface NewComprobante {
  readonly id: string;
  readonly accountId: string;
  readonly series: SeriesKey;
  readonly cbteNro: number;
  readonly sent: SentVoucher;
  /** the columns read without knowing the kind of voucher, taken from `sent` */
  readonly summary: VoucherSummary;
  /** the request as resolved (receiver, items, tributos, opcionales) */
  readonly request: unknown;
  readonly emailTo: string | null;
  readonly idempotencyKey: string | null;
  readonly requestId: string;
}

/**
 * - number-taken: a live voucher holds one of the numbers;
 * - key-live: a live voucher holds one of the Idempotency-Keys (an earlier attempt of it).
 */
export type InsertOutcome = "stored" | "number-taken" | "key-live";

/** The authority's answer that makes a voucher authorized. */
export interface Authorization {
  readonly cae: string;
  readonly caeVencimiento: string;
  readonly observaciones: readonly AuthorityMessage[];
  readonly eventos: readonly AuthorityMessage[];
}

export interface Rejection {
  readonly observaciones: readonly AuthorityMessage[];
  readonly errores: readonly AuthorityMessage[];
  readonly eventos: readonly AuthorityMessage[];
}

/** One live voucher per Idempotency-Key of an account (migration 2026-12-20-01). */
export const LIVE_KEY_INDEX = "comprobantes_live_key_idx";

/** The columns of a voucher about to be stored, in the state `pending`. */
export function newRow(voucher: NewComprobante) {
  const { sent, series, summary } = voucher;
  return {
    id: voucher.id,
    account_id: voucher.accountId,
    environment: series.environment,
    cuit: series.cuit,
    pto_vta: series.ptoVta,
    cbte_tipo: series.cbteTipo,
    cbte_nro: voucher.cbteNro,
    state: "pending" as const,
    concepto: summary.concepto,
    cbte_fch: summary.cbteFch,
    doc_tipo: summary.docTipo,
    doc_nro: summary.docNro,
    moneda_id: summary.monedaId,
    moneda_cotizacion: summary.monedaCotizacion,
    imp_total: summary.impTotal,
    imp_neto: summary.impNeto,
    imp_iva: summary.impIVA,
    imp_trib: summary.impTrib,
    imp_tot_conc: summary.impTotConc,
    imp_op_ex: summary.impOpEx,
    request: voucher.request,
    sent: sent,
    email_to: voucher.emailTo,
    idempotency_key: voucher.idempotencyKey,
    request_id: voucher.requestId,
  };
}

/**
 * Authorizes vouchers with their CAEs in one statement (data-modifying CTEs: atomic in one
 * round trip), creating the e-mail record of those with a recipient.
 */
async function authorizeMany(
  db: Kysely<WsfeDatabase>,
  authorized: readonly (Authorization & { readonly id: string })[],
): Promise<StoredComprobante[]> {
  if (authorized.length === 0) return [];
  // text, then jsonb: the driver would otherwise serialize the JSON text as a JSON string
  const answers = sql.join(
    authorized.map(
      (a) =>
        sql`(${a.id}::uuid, ${a.cae}::text, ${a.caeVencimiento}::text, ${JSON.stringify(a.observaciones)}::text::jsonb, ${JSON.stringify(a.eventos)}::text::jsonb)`,
    ),
  );
  const result = await sql<Selectable<ComprobantesTable>>`
    with answers (id, cae, cae_vencimiento, observaciones, eventos) as (values ${answers}),
    authorized as (
      update comprobantes c
      set state = 'authorized', resultado = 'A', cae = a.cae,
        cae_vencimiento = a.cae_vencimiento, observaciones = a.observaciones,
        eventos = a.eventos, failure = null, answered_at = now(), updated_at = now()
      from answers a
      where c.id = a.id and c.state in ('pending', 'unknown')
      returning c.*
    ),
    email as (
      insert into comprobantes_email
        (account_id, environment, cuit, pto_vta, cbte_tipo, cbte_nro, email_to, status)
      select account_id, environment, cuit, pto_vta, cbte_tipo, cbte_nro, email_to, 'pending'
      from authorized where email_to is not null
      on conflict (account_id, environment, cuit, pto_vta, cbte_tipo, cbte_nro) do nothing
    )
    select * from authorized order by cbte_nro`.execute(db);
  return result.rows.map(toStored);
}

/**
 * The vouchers wsfe issued. Each change of state is one statement guarded by the state it
 * leaves, so a final state is never overwritten (an answer arriving after reconciliation
 * decided, for instance).
 */
export function makeComprobantesRepository(db: Kysely<WsfeDatabase>) {
  const unresolvedRow = (id: string, fence?: LeaseFence) => {
    const row = db
      .updateTable("comprobantes")
      .where("id", "=", id)
      .where("state", "in", UNRESOLVED);
    return fence ? row.where((eb) => leaseHeld(eb, fence)) : row;
  };

  return {
    ...makeSendsRepository(db),
    ...makeComprobanteReads(db),

    /**
     * Stores a batch `pending` with its numbers in one statement: all of them, or none and
     * "number-taken" / "key-live" when a live voucher holds one of the numbers or keys. With
     * `inFlightMs`, they are about to be sent: a send may reach the authority until that long
     * from now.
     */
    async insertPending(
      vouchers: readonly NewComprobante[],
      inFlightMs?: number,
    ): Promise<InsertOutcome> {
      try {
        await db
          .insertInto("comprobantes")
          .values(
            vouchers.map((voucher) => ({
              ...newRow(voucher),
              ...(inFlightMs === undefined ? {} : { in_flight_until: msFromNow(inFlightMs) }),
            })),
          )
          .execute();
        return "stored";
      } catch (error) {
        if (isUniqueViolation(error, LIVE_KEY_INDEX)) return "key-live";
        if (isUniqueViolation(error)) return "number-taken";
        throw error;
      }
    },

    /**
     * Authorized with its CAE; with an e-mail recipient, its e-mail record is created in the
     * same statement (status `pending` until the e-mail issue sends it). Answers the stored
     * voucher, or undefined when it had already left `pending`/`unknown`.
     */
    async markAuthorized(
      id: string,
      authorization: Authorization,
    ): Promise<StoredComprobante | undefined> {
      const [stored] = await authorizeMany(db, [{ ...authorization, id }]);
      return stored;
    },

    /**
     * A batch's authorized vouchers in one statement (one commit): each with its CAE, and its
     * e-mail record when it has a recipient, as `markAuthorized`. Answers the vouchers stored;
     * one that had already left `pending`/`unknown` is left out.
     */
    markManyAuthorized: (authorized: readonly (Authorization & { readonly id: string })[]) =>
      authorizeMany(db, authorized),

    /**
     * Resultado R: the authority judged and refused; the number is free again. With a fence,
     * only while its lease holds (see LeaseFence): a later holder may have sent it again.
     */
    async markRejected(
      id: string,
      rejection: Rejection,
      fence?: LeaseFence,
    ): Promise<StoredComprobante | undefined> {
      const row = await unresolvedRow(id, fence)
        .set({
          state: "rejected",
          resultado: "R",
          observaciones: rejection.observaciones,
          errores: rejection.errores,
          eventos: rejection.eventos,
          answered_at: sql<Date>`now()`,
          updated_at: sql<Date>`now()`,
        })
        .returningAll()
        .executeTakeFirst();
      return row && toStored(row);
    },

    /** Sent without a usable answer: it may or may not have been authorized. */
    async markUnknown(id: string, failure: unknown): Promise<boolean> {
      const result = await unresolvedRow(id)
        .set({
          state: "unknown",
          failure: failure,
          updated_at: sql<Date>`now()`,
        })
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Proved never authorized: refused before judging, or the number never used. */
    async markNotIssued(
      id: string,
      failure: unknown,
      fence?: LeaseFence,
    ): Promise<StoredComprobante | undefined> {
      const row = await unresolvedRow(id, fence)
        .set({
          state: "not_issued",
          failure: failure,
          updated_at: sql<Date>`now()`,
        })
        .returningAll()
        .executeTakeFirst();
      return row && toStored(row);
    },

    /** The number holds another voucher at the authority: never adopt a stranger's CAE. */
    async markConflict(
      id: string,
      failure: unknown,
      fence?: LeaseFence,
    ): Promise<StoredComprobante | undefined> {
      const row = await unresolvedRow(id, fence)
        .set({
          state: "conflict",
          failure: failure,
          updated_at: sql<Date>`now()`,
        })
        .returningAll()
        .executeTakeFirst();
      return row && toStored(row);
    },

    /**
     * Several vouchers of one batch, in one statement: sent without a usable answer (`unknown`)
     * or proved never judged (`not_issued`). With a fence, only while its lease holds. Answers
     * the ids changed.
     */
    async markManyUnresolved(
      ids: readonly string[],
      state: "unknown" | "not_issued",
      failure: unknown,
      fence?: LeaseFence,
    ): Promise<string[]> {
      if (ids.length === 0) return [];
      let query = db
        .updateTable("comprobantes")
        .where("id", "in", ids)
        .where("state", "in", UNRESOLVED)
        .set({ state, failure: failure, updated_at: sql<Date>`now()` });
      if (fence) query = query.where((eb) => leaseHeld(eb, fence));
      const rows = await query.returning("id").execute();
      return rows.map((r) => r.id);
    },

    /** The final states' events of these vouchers reached JetStream. */
    async markEventsPublished(ids: readonly string[]): Promise<void> {
      if (ids.length === 0) return;
      await db
        .updateTable("comprobantes")
        .where("id", "in", ids)
        .set({ event_published_at: sql<Date>`now()` })
        .execute();
    },
  };
}

export type ComprobantesRepository = ReturnType<typeof makeComprobantesRepository>;
