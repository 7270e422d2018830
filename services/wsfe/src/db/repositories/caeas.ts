import type { Sealer } from "@pasarela/sealing";
import type { Kysely } from "kysely";
import type { CaeaOtorgado } from "../../adapters/wsfe-caea.js";
import type { WsfeDatabase } from "../database.js";

/** Whose CAEA: a CUIT in one environment. */
export interface CaeaOwner {
  readonly environment: "homologacion" | "produccion";
  readonly cuit: string;
}

/** A stored CAEA, opened, with when it was obtained. */
export interface StoredCaea extends CaeaOtorgado {
  readonly obtainedAt: Date;
}

/** The row's own key: the context its code is sealed under. */
const context = (o: CaeaOwner, periodo: number, orden: number) =>
  `wsfe.caea:${o.environment}:${o.cuit}:${periodo}:${orden}`;

/** The CAEAs obtained per CUIT and fortnight, the code sealed at rest. */
export function makeCaeasRepository(db: Kysely<WsfeDatabase>, sealer: Sealer) {
  return {
    /** Stores a granted CAEA; one already stored for the fortnight is kept as it is. */
    async store(owner: CaeaOwner, caea: CaeaOtorgado): Promise<void> {
      await db
        .insertInto("caeas")
        .values({
          environment: owner.environment,
          cuit: owner.cuit,
          periodo: caea.periodo,
          orden: caea.orden,
          caea_sealed: sealer.seal(caea.caea, context(owner, caea.periodo, caea.orden)),
          fch_vig_desde: caea.fchVigDesde,
          fch_vig_hasta: caea.fchVigHasta,
          fch_tope_inf: caea.fchTopeInf,
          fch_proceso: caea.fchProceso,
        })
        .onConflict((oc) => oc.columns(["environment", "cuit", "periodo", "orden"]).doNothing())
        .execute();
    },

    /** The fortnight's CAEA, or undefined when none was obtained. */
    async find(
      owner: CaeaOwner,
      quincena: { periodo: number; orden: 1 | 2 },
    ): Promise<StoredCaea | undefined> {
      const row = await db
        .selectFrom("caeas")
        .selectAll()
        .where("environment", "=", owner.environment)
        .where("cuit", "=", owner.cuit)
        .where("periodo", "=", quincena.periodo)
        .where("orden", "=", quincena.orden)
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        caea: sealer.open(row.caea_sealed, context(owner, row.periodo, row.orden)),
        periodo: row.periodo,
        orden: quincena.orden,
        fchVigDesde: row.fch_vig_desde,
        fchVigHasta: row.fch_vig_hasta,
        fchTopeInf: row.fch_tope_inf,
        fchProceso: row.fch_proceso,
        obtainedAt: row.obtained_at,
      };
    },
  };
}

export type CaeasRepository = ReturnType<typeof makeCaeasRepository>;

/** A fortnight found without its CAEA, for one account's representada. */
export interface CaeaFaltante extends CaeaOwner {
  readonly accountId: string;
  readonly periodo: number;
  readonly orden: 1 | 2;
  readonly fchVigDesde: string;
  readonly fchVigHasta: string;
}

/** The fortnights found without their CAEA, each alerted once. */
export function makeCaeaFaltantesRepository(db: Kysely<WsfeDatabase>) {
  const key = (f: CaeaFaltante) =>
    db
      .updateTable("caea_faltantes")
      .where("account_id", "=", f.accountId)
      .where("environment", "=", f.environment)
      .where("cuit", "=", f.cuit)
      .where("periodo", "=", f.periodo)
      .where("orden", "=", f.orden);
  return {
    /** Records a missing CAEA; one already recorded is left as it is. */
    async record(f: CaeaFaltante): Promise<void> {
      await db
        .insertInto("caea_faltantes")
        .values({
          account_id: f.accountId,
          environment: f.environment,
          cuit: f.cuit,
          periodo: f.periodo,
          orden: f.orden,
          fch_vig_desde: f.fchVigDesde,
          fch_vig_hasta: f.fchVigHasta,
        })
        .onConflict((oc) =>
          oc.columns(["account_id", "environment", "cuit", "periodo", "orden"]).doNothing(),
        )
        .execute();
    },
    /** Those whose alert has not gone out yet. */
    async pending(limit = 100): Promise<CaeaFaltante[]> {
      const rows = await db
        .selectFrom("caea_faltantes")
        .selectAll()
        .where("avisado_at", "is", null)
        .orderBy("created_at")
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        accountId: r.account_id,
        environment: r.environment,
        cuit: r.cuit,
        periodo: r.periodo,
        orden: r.orden === 2 ? 2 : 1,
        fchVigDesde: r.fch_vig_desde,
        fchVigHasta: r.fch_vig_hasta,
      }));
    },
    /** Its alert went out. */
    async alerted(f: CaeaFaltante): Promise<void> {
      await key(f).set({ avisado_at: new Date() }).execute();
    },
  };
}

export type CaeaFaltantesRepository = ReturnType<typeof makeCaeaFaltantesRepository>;
