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
