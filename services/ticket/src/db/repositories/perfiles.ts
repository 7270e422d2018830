import { sql, type Kysely, type Selectable, type Updateable } from "kysely";
import type { RepresentadaPerfilesTable, TicketDatabase } from "../database.js";

export type PerfilRow = Selectable<RepresentadaPerfilesTable>;
/** The columns a change sets; absent ones are left as they are. */
export type PerfilChanges = Omit<
  Updateable<RepresentadaPerfilesTable>,
  "representada_id" | "updated_at"
>;

/** The representadas' issuer profiles. */
export function makePerfilesRepository(db: Kysely<TicketDatabase>) {
  return {
    find(representadaId: string): Promise<PerfilRow | undefined> {
      return db
        .selectFrom("representada_perfiles")
        .selectAll()
        .where("representada_id", "=", representadaId)
        .executeTakeFirst();
    },
    /** Creates the profile or changes the given columns of it, in one statement. */
    upsert(representadaId: string, changes: PerfilChanges): Promise<PerfilRow> {
      return db
        .insertInto("representada_perfiles")
        .values({ representada_id: representadaId, ...changes })
        .onConflict((oc) =>
          oc.column("representada_id").doUpdateSet({ ...changes, updated_at: sql<Date>`now()` }),
        )
        .returningAll()
        .executeTakeFirstOrThrow();
    },
  };
}

export type PerfilesRepository = ReturnType<typeof makePerfilesRepository>;
