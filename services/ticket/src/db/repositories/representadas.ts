import { isUniqueViolation } from "@pasarela/db";
import type { Insertable, Kysely, Selectable } from "kysely";
import type {
  CertificatesTable,
  EnvironmentColumn,
  RepresentadasTable,
  TicketDatabase,
} from "../database.js";

export type RepresentadaRow = Selectable<RepresentadasTable>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function makeRepresentadasRepository(db: Kysely<TicketDatabase>) {
  return {
    /**
     * The representada and its pending key together, so none exists without the other;
     * "duplicate" when the account already registered that CUIT in that environment.
     */
    async insertWithPendingKey(
      row: Omit<RepresentadaRow, "created_at" | "contingencia_caea" | "contingencia_ptos_venta">,
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
        if (isUniqueViolation(error)) return "duplicate";
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
    /**
     * The account's representada with that id; undefined for an unknown, malformed or another
     * account's id alike, and for no account at all.
     */
    async findForAccount(
      accountId: string | undefined,
      id: string,
    ): Promise<RepresentadaRow | undefined> {
      if (!accountId || !UUID.test(id)) return undefined;
      return db
        .selectFrom("representadas")
        .selectAll()
        .where("id", "=", id)
        .where("account_id", "=", accountId)
        .executeTakeFirst();
    },
    /** The point of sale a domestic query uses when it omits one (null: none). */
    async setPtoVta(id: string, ptoVta: number | null): Promise<void> {
      await db.updateTable("representadas").set({ pto_vta: ptoVta }).where("id", "=", id).execute();
    },
    /** Contingency with CAEA on (and its points of sale) or off. */
    async setContingencia(id: string, contingencia: { caea: boolean; puntosDeVenta: number[] }) {
      await db
        .updateTable("representadas")
        .set({
          contingencia_caea: contingencia.caea,
          contingencia_ptos_venta: contingencia.puntosDeVenta,
        })
        .where("id", "=", id)
        .execute();
    },
    /** Every representada with CAEA contingency on, of every account. */
    withContingencia(): Promise<RepresentadaRow[]> {
      return db
        .selectFrom("representadas")
        .selectAll()
        .where("contingencia_caea", "=", true)
        .orderBy("environment")
        .orderBy("cuit")
        .execute();
    },
    listByAccount(accountId: string, environment?: EnvironmentColumn): Promise<RepresentadaRow[]> {
      let query = db.selectFrom("representadas").selectAll().where("account_id", "=", accountId);
      if (environment) query = query.where("environment", "=", environment);
      return query.orderBy("created_at").orderBy("cuit").execute();
    },
  };
}

export type RepresentadasRepository = ReturnType<typeof makeRepresentadasRepository>;
