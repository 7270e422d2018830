import { sql, type Kysely } from "kysely";
import type { Environment } from "@pasarela/contracts";
import type { WsfeDatabase } from "../database.js";

/**
 * The FEXAuthorize request Ids of each CUIT: a block taken in one statement, so instances
 * never hand out the same Id; `seed` starts (or moves past) the authority's highest.
 */
export function makeExportacionIdsRepository(db: Kysely<WsfeDatabase>) {
  return {
    /** The first of `count` consecutive Ids, or undefined while the CUIT has no row yet. */
    async take(environment: Environment, cuit: string, count: number): Promise<number | undefined> {
      const row = await db
        .updateTable("exportacion_ids")
        .set({ next_id: sql`next_id + ${count}`, updated_at: sql`now()` })
        .where("environment", "=", environment)
        .where("cuit", "=", cuit)
        .returning(sql<string>`next_id - ${count}`.as("first"))
        .executeTakeFirst();
      return row === undefined ? undefined : Number(row.first);
    },
    /** The next Id is above `lastId` (the authority's FEXGetLast_ID) from now on. */
    async seed(environment: Environment, cuit: string, lastId: number): Promise<void> {
      await db
        .insertInto("exportacion_ids")
        .values({ environment, cuit, next_id: lastId + 1 })
        .onConflict((oc) =>
          oc.columns(["environment", "cuit"]).doUpdateSet({
            next_id: sql`greatest(exportacion_ids.next_id, excluded.next_id)`,
            updated_at: sql`now()`,
          }),
        )
        .execute();
    },
  };
}
export type ExportacionIdsRepository = ReturnType<typeof makeExportacionIdsRepository>;
