import type { Insertable, Kysely, Selectable } from "kysely";
import type {
  CertificatesTable,
  EnvironmentColumn,
  RepresentadasTable,
  TicketDatabase,
} from "../database.js";

export type RepresentadaRow = Selectable<RepresentadasTable>;

const UNIQUE_VIOLATION = "23505";

export function makeRepresentadasRepository(db: Kysely<TicketDatabase>) {
  return {
    /**
     * The representada and its pending key together, so none exists without the other;
     * "duplicate" when the account already registered that CUIT in that environment.
     */
    async insertWithPendingKey(
      row: Omit<RepresentadaRow, "created_at">,
      pending: Pick<Insertable<CertificatesTable>, "id" | "private_key_sealed" | "csr_pem">,
    ): Promise<RepresentadaRow | "duplicate"> {
      try {
        return await db.transaction().execute(async (trx) => {
          const inserted = await trx
            .insertInto("representadas")
            .values(row)
            .returningAll()
            .executeTakeFirstOrThrow();
          await trx
            .insertInto("certificates")
            .values({ ...pending, representada_id: row.id, status: "pending" })
            .execute();
          return inserted;
        });
      } catch (error) {
        if ((error as { code?: unknown }).code === UNIQUE_VIOLATION) return "duplicate";
        throw error;
      }
    },
    find(
      accountId: string,
      cuit: string,
      environment: EnvironmentColumn,
    ): Promise<RepresentadaRow | undefined> {
      return db
        .selectFrom("representadas")
        .selectAll()
        .where("account_id", "=", accountId)
        .where("cuit", "=", cuit)
        .where("environment", "=", environment)
        .executeTakeFirst();
    },
    findById(id: string): Promise<RepresentadaRow | undefined> {
      return db.selectFrom("representadas").selectAll().where("id", "=", id).executeTakeFirst();
    },
    listByAccount(accountId: string): Promise<RepresentadaRow[]> {
      return db
        .selectFrom("representadas")
        .selectAll()
        .where("account_id", "=", accountId)
        .orderBy("created_at")
        .orderBy("cuit")
        .execute();
    },
  };
}

export type RepresentadasRepository = ReturnType<typeof makeRepresentadasRepository>;
