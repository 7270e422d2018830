import { sql, type Kysely, type Selectable } from "kysely";
import type { AuthorityMessage } from "../../domain/cae-answer.js";
import type { ComprobantesTable, WsfeDatabase } from "../database.js";
import { toStored, type StoredComprobante } from "./comprobante-rows.js";
import { leaseHeld } from "./lease-fence.js";
import type { LeaseFence, SeriesKey } from "./series.js";

/** A series with CAEA vouchers to inform, and how its informing went lately. */
export interface SerieAInformar {
  readonly accountId: string;
  readonly series: SeriesKey;
  /** failed attempts in a row on its lowest pending voucher, and when the last one was noted */
  readonly intentos: number;
  readonly updatedAt: Date;
}

/** A fortnight's vouchers not informed yet, of one account's representada. */
export interface CaeaSinInformar {
  readonly accountId: string;
  readonly environment: "homologacion" | "produccion";
  readonly cuit: string;
  readonly periodo: number;
  readonly orden: number;
  readonly pendientes: number;
  /** undefined when the CAEA is not stored (it always is for vouchers issued under it) */
  readonly fchTopeInf: string | undefined;
  readonly avisado: boolean;
}

/** The informing's own notes: what the authority said of a voucher, or why it was not settled. */
export interface Informe {
  readonly id: string;
  readonly observaciones: readonly AuthorityMessage[];
  readonly eventos: readonly AuthorityMessage[];
}

const json = (value: unknown) => sql`${JSON.stringify(value)}::text::jsonb`;

/**
 * The informing of vouchers issued under a CAEA: what is pending per series, in numbering
 * order, and each change of `caea_estado` as one statement guarded by the state it leaves (a
 * voucher informed or rejected is never changed again).
 */
export function makeCaeaInformesRepository(db: Kysely<WsfeDatabase>) {
  const pendiente = () =>
    db
      .selectFrom("comprobantes")
      .where("caea_estado", "=", "pendiente")
      .where("state", "=", "authorized");

  return {
    /** Every series with a voucher pending informing, with its lowest voucher's attempts. */
    async seriesPendientes(): Promise<SerieAInformar[]> {
      const result = await sql<{
        account_id: string;
        environment: "homologacion" | "produccion";
        cuit: string;
        pto_vta: number;
        cbte_tipo: number;
        caea_intentos: number;
        updated_at: Date;
      }>`
        select distinct on (environment, cuit, pto_vta, cbte_tipo)
          account_id, environment, cuit, pto_vta, cbte_tipo, caea_intentos, updated_at
        from comprobantes
        where caea_estado = 'pendiente' and state = 'authorized'
        order by environment, cuit, pto_vta, cbte_tipo, cbte_nro`.execute(db);
      return result.rows.map((r) => ({
        accountId: r.account_id,
        series: {
          environment: r.environment,
          cuit: r.cuit,
          ptoVta: r.pto_vta,
          cbteTipo: r.cbte_tipo,
        },
        intentos: r.caea_intentos,
        updatedAt: r.updated_at,
      }));
    },

    /** The series' vouchers pending informing, lowest number first. */
    async pendientes(series: SeriesKey, limit: number): Promise<StoredComprobante[]> {
      const rows = await pendiente()
        .selectAll()
        .where("environment", "=", series.environment)
        .where("cuit", "=", series.cuit)
        .where("pto_vta", "=", series.ptoVta)
        .where("cbte_tipo", "=", series.cbteTipo)
        .orderBy("cbte_nro")
        .limit(limit)
        .execute();
      return rows.map(toStored);
    },

    /** The series' voucher under `cbteNro` that was rejected at informing, if any. */
    async rechazado(series: SeriesKey, cbteNro: number): Promise<StoredComprobante | undefined> {
      const row = await db
        .selectFrom("comprobantes")
        .selectAll()
        .where("environment", "=", series.environment)
        .where("cuit", "=", series.cuit)
        .where("pto_vta", "=", series.ptoVta)
        .where("cbte_tipo", "=", series.cbteTipo)
        .where("cbte_nro", "=", String(cbteNro))
        .where("state", "=", "caea_rechazado")
        .executeTakeFirst();
      return row && toStored(row);
    },

    /**
     * Accepted by the authority (now, or by an earlier attempt whose answer was lost): informed,
     * with its observations. Not fenced: the authority's acceptance is a fact whoever writes it.
     * Answers the vouchers changed, lowest number first.
     */
    async markInformados(informes: readonly Informe[]): Promise<StoredComprobante[]> {
      if (informes.length === 0) return [];
      const values = sql.join(
        informes.map((i) => sql`(${i.id}::uuid, ${json(i.observaciones)}, ${json(i.eventos)})`),
      );
      const result = await sql<Selectable<ComprobantesTable>>`
        with informes (id, observaciones, eventos) as (values ${values})
        update comprobantes c
        set caea_estado = 'informado', caea_informado_at = now(), caea_failure = null,
          observaciones = i.observaciones, eventos = i.eventos, updated_at = now()
        from informes i
        where c.id = i.id and c.caea_estado = 'pendiente' and c.state = 'authorized'
        returning c.*`.execute(db);
      return result.rows.map(toStored).sort((a, b) => a.cbteNro - b.cbteNro);
    },

    /**
     * Refused by the authority at informing: `caea_rechazado`, its number kept (the customer
     * holds the voucher), with the authority's codes. Only while the lease holds.
     */
    async markRechazado(
      id: string,
      rechazo: {
        readonly observaciones: readonly AuthorityMessage[];
        readonly errores: readonly AuthorityMessage[];
        readonly eventos: readonly AuthorityMessage[];
        readonly failure: unknown;
      },
      fence?: LeaseFence,
    ): Promise<StoredComprobante | undefined> {
      let query = db
        .updateTable("comprobantes")
        .where("id", "=", id)
        .where("caea_estado", "=", "pendiente")
        .where("state", "=", "authorized")
        .set({
          state: "caea_rechazado",
          caea_estado: "rechazado",
          resultado: "R",
          observaciones: rechazo.observaciones,
          errores: rechazo.errores,
          eventos: rechazo.eventos,
          caea_failure: rechazo.failure,
          updated_at: sql<Date>`now()`,
        });
      if (fence) query = query.where((eb) => leaseHeld(eb, fence));
      const row = await query.returningAll().executeTakeFirst();
      return row && toStored(row);
    },

    /**
     * Why these pending vouchers were not informed on this attempt; `intento` counts it as a
     * failed attempt (the series then waits longer before the next one).
     */
    async markNoInformados(
      ids: readonly string[],
      failure: unknown,
      intento: boolean,
    ): Promise<void> {
      if (ids.length === 0) return;
      await db
        .updateTable("comprobantes")
        .where("id", "in", ids)
        .where("caea_estado", "=", "pendiente")
        .set((eb) => ({
          caea_failure: failure,
          caea_intentos: intento ? eb("caea_intentos", "+", 1) : eb.ref("caea_intentos"),
          updated_at: sql<Date>`now()`,
        }))
        .execute();
    },

    /** Informed or rejected this long ago at least, with their informing's event not out yet. */
    async sinEvento(olderThanMs: number, limit: number): Promise<StoredComprobante[]> {
      const rows = await db
        .selectFrom("comprobantes")
        .selectAll()
        .where("caea_estado", "in", ["informado", "rechazado"])
        .where("caea_evento_at", "is", null)
        .where("updated_at", "<", sql<Date>`now() - ${olderThanMs} * interval '1 millisecond'`)
        .orderBy("updated_at")
        .limit(limit)
        .execute();
      return rows.map(toStored);
    },

    /** The informing's events of these vouchers reached JetStream. */
    async markEventoPublicado(ids: readonly string[]): Promise<void> {
      if (ids.length === 0) return;
      await db
        .updateTable("comprobantes")
        .where("id", "in", ids)
        .set({ caea_evento_at: sql<Date>`now()` })
        .execute();
    },

    /** The fortnights with vouchers pending informing, with their FchTopeInf and alert. */
    async sinInformar(): Promise<CaeaSinInformar[]> {
      const result = await sql<{
        account_id: string;
        environment: "homologacion" | "produccion";
        cuit: string;
        periodo: number;
        orden: number;
        pendientes: string;
        fch_tope_inf: string | null;
        avisado: boolean;
      }>`
        select c.account_id, c.environment, c.cuit, c.caea_periodo as periodo,
          c.caea_orden as orden, count(*) as pendientes, k.fch_tope_inf,
          (a.avisado_at is not null) as avisado
        from comprobantes c
        left join caeas k on k.environment = c.environment and k.cuit = c.cuit
          and k.periodo = c.caea_periodo and k.orden = c.caea_orden
        left join caea_informe_avisos a on a.account_id = c.account_id
          and a.environment = c.environment and a.cuit = c.cuit
          and a.periodo = c.caea_periodo and a.orden = c.caea_orden
        where c.caea_estado = 'pendiente' and c.state = 'authorized'
        group by c.account_id, c.environment, c.cuit, c.caea_periodo, c.caea_orden,
          k.fch_tope_inf, a.avisado_at`.execute(db);
      return result.rows.map((r) => ({
        accountId: r.account_id,
        environment: r.environment,
        cuit: r.cuit,
        periodo: r.periodo,
        orden: r.orden,
        pendientes: Number(r.pendientes),
        fchTopeInf: r.fch_tope_inf ?? undefined,
        avisado: r.avisado,
      }));
    },

    /** The alert of a fortnight's vouchers near FchTopeInf went out. */
    async markAvisado(f: Omit<CaeaSinInformar, "pendientes" | "fchTopeInf" | "avisado">) {
      await db
        .insertInto("caea_informe_avisos")
        .values({
          account_id: f.accountId,
          environment: f.environment,
          cuit: f.cuit,
          periodo: f.periodo,
          orden: f.orden,
        })
        .onConflict((oc) =>
          oc.columns(["account_id", "environment", "cuit", "periodo", "orden"]).doNothing(),
        )
        .execute();
    },

    /** The points of sale of a CUIT with a voucher issued under a fortnight's CAEA. */
    async conMovimiento(
      owner: { environment: "homologacion" | "produccion"; cuit: string },
      quincena: { periodo: number; orden: number },
    ): Promise<Set<number>> {
      const rows = await db
        .selectFrom("comprobantes")
        .select("pto_vta")
        .distinct()
        .where("environment", "=", owner.environment)
        .where("cuit", "=", owner.cuit)
        .where("tipo_autorizacion", "=", "CAEA")
        .where("caea_periodo", "=", quincena.periodo)
        .where("caea_orden", "=", quincena.orden)
        .execute();
      return new Set(rows.map((r) => r.pto_vta));
    },

    /** The points of sale already declared without movement for a fortnight. */
    async declarados(
      owner: { environment: "homologacion" | "produccion"; cuit: string },
      quincena: { periodo: number; orden: number },
    ): Promise<Set<number>> {
      const rows = await db
        .selectFrom("caea_sin_movimiento")
        .select("pto_vta")
        .where("environment", "=", owner.environment)
        .where("cuit", "=", owner.cuit)
        .where("periodo", "=", quincena.periodo)
        .where("orden", "=", quincena.orden)
        .execute();
      return new Set(rows.map((r) => r.pto_vta));
    },

    /** A point of sale declared without movement (or refused so), once. */
    async recordSinMovimiento(d: {
      environment: "homologacion" | "produccion";
      cuit: string;
      periodo: number;
      orden: number;
      ptoVta: number;
      resultado: string;
      fchProceso: string | null;
      errores: readonly AuthorityMessage[];
    }): Promise<void> {
      await db
        .insertInto("caea_sin_movimiento")
        .values({
          environment: d.environment,
          cuit: d.cuit,
          periodo: d.periodo,
          orden: d.orden,
          pto_vta: d.ptoVta,
          resultado: d.resultado,
          fch_proceso: d.fchProceso,
          errores: d.errores,
        })
        .onConflict((oc) =>
          oc.columns(["environment", "cuit", "periodo", "orden", "pto_vta"]).doNothing(),
        )
        .execute();
    },
  };
}

export type CaeaInformesRepository = ReturnType<typeof makeCaeaInformesRepository>;
