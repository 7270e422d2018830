import { createHash } from "node:crypto";
import { sql, type Kysely, type Selectable, type Updateable } from "kysely";
import type { RepresentadaPerfilesTable, TicketDatabase } from "../database.js";

export type PerfilRow = Selectable<RepresentadaPerfilesTable>;
/** The columns a change sets; absent ones are left as they are. The logo's name follows it. */
export type PerfilChanges = Omit<
  Updateable<RepresentadaPerfilesTable>,
  "representada_id" | "updated_at" | "logo_sha256"
>;
/** The profile without the logo's bytes: what a voucher copies when it is issued. */
export type EmisorRow = Omit<PerfilRow, "logo" | "email" | "updated_at">;

const sha256Of = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** The representadas' issuer profiles, and every logo each one had. */
export function makePerfilesRepository(db: Kysely<TicketDatabase>) {
  return {
    find(representadaId: string): Promise<PerfilRow | undefined> {
      return db
        .selectFrom("representada_perfiles")
        .selectAll()
        .where("representada_id", "=", representadaId)
        .executeTakeFirst();
    },
    findEmisor(representadaId: string): Promise<EmisorRow | undefined> {
      return db
        .selectFrom("representada_perfiles")
        .select([
          "representada_id",
          "razon_social",
          "domicilio_comercial",
          "condicion_iva",
          "ingresos_brutos",
          "inicio_actividades",
          "logo_media_type",
          "logo_sha256",
        ])
        .where("representada_id", "=", representadaId)
        .executeTakeFirst();
    },
    /** A logo the representada had, by its SHA-256. */
    findLogo(
      representadaId: string,
      sha256: string,
    ): Promise<{ media_type: "image/png" | "image/jpeg"; data: Buffer } | undefined> {
      return db
        .selectFrom("representada_logos")
        .select(["media_type", "data"])
        .where("representada_id", "=", representadaId)
        .where("sha256", "=", sha256)
        .executeTakeFirst();
    },
    /**
     * Creates the profile or changes the given columns of it. A new logo is also kept among
     * the representada's logos, first, so a profile never names a logo that is not kept.
     */
    async upsert(representadaId: string, changes: PerfilChanges): Promise<PerfilRow> {
      let named: Updateable<RepresentadaPerfilesTable> = changes;
      if (changes.logo !== undefined) {
        const logo = changes.logo;
        const sha256 = logo === null ? null : sha256Of(logo);
        named = { ...changes, logo_sha256: sha256 };
        if (logo !== null && sha256 !== null && changes.logo_media_type) {
          await db
            .insertInto("representada_logos")
            .values({
              representada_id: representadaId,
              sha256,
              media_type: changes.logo_media_type,
              data: logo,
            })
            .onConflict((oc) => oc.columns(["representada_id", "sha256"]).doNothing())
            .execute();
        }
      }
      return db
        .insertInto("representada_perfiles")
        .values({ representada_id: representadaId, ...named })
        .onConflict((oc) =>
          oc.column("representada_id").doUpdateSet({ ...named, updated_at: sql<Date>`now()` }),
        )
        .returningAll()
        .executeTakeFirstOrThrow();
    },
  };
}

export type PerfilesRepository = ReturnType<typeof makePerfilesRepository>;
