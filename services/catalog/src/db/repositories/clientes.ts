import type { catalog } from "@pasarela/contracts";
import type { AppError } from "@pasarela/errors";
import { sql, type Kysely, type Selectable, type Updateable } from "kysely";
import { ACCENTED, containsPattern, UNACCENTED } from "../../domain/search.js";
import type { CatalogDatabase, ClientesTable } from "../database.js";
import { keysetPage, type KeysetPage, type KeysetQuery } from "./keyset.js";
import { isUniqueViolation } from "@pasarela/db";

const DOCUMENTO_VIVO = "clientes_documento_vivo_key";

type ClienteRow = Selectable<ClientesTable>;

function toCliente(row: ClienteRow): catalog.Cliente {
  return {
    id: row.id,
    docTipo: row.doc_tipo,
    docNro: row.doc_nro,
    razonSocial: row.razon_social,
    condicionIvaReceptorId: row.condicion_iva_receptor_id,
    email: row.email,
    domicilio: row.domicilio,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export type ClienteUpdateOutcome =
  | { readonly kind: "updated"; readonly cliente: catalog.Cliente }
  | { readonly kind: "not_found" }
  | { readonly kind: "duplicate" }
  | { readonly kind: "refused"; readonly error: AppError };

/** Every query is scoped to one account and to live rows: other rows do not exist here. */
export function makeClientesRepository(db: Kysely<CatalogDatabase>) {
  const live = (accountId: string) =>
    db
      .selectFrom("clientes")
      .selectAll()
      .where("account_id", "=", accountId)
      .where("deleted_at", "is", null);

  return {
    /** "duplicate" when the account already has a live customer with that document. */
    async insert(
      accountId: string,
      id: string,
      input: catalog.ClienteInput,
    ): Promise<catalog.Cliente | "duplicate"> {
      try {
        const row = await db
          .insertInto("clientes")
          .values({
            id,
            account_id: accountId,
            doc_tipo: input.docTipo,
            doc_nro: input.docNro,
            razon_social: input.razonSocial,
            condicion_iva_receptor_id: input.condicionIvaReceptorId ?? null,
            email: input.email ?? null,
            domicilio: input.domicilio ?? null,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return toCliente(row);
      } catch (error) {
        if (isUniqueViolation(error, DOCUMENTO_VIVO)) return "duplicate";
        throw error;
      }
    },

    async find(accountId: string, id: string): Promise<catalog.Cliente | undefined> {
      const row = await live(accountId).where("id", "=", id).executeTakeFirst();
      return row && toCliente(row);
    },

    /**
     * One page in insertion order, and the id to continue after (null on the last); undefined
     * when `after` names no record of this account. A
     * deleted record still anchors the page after it.
     */
    async list(
      query: KeysetQuery<catalog.ClienteFilter>,
    ): Promise<KeysetPage<catalog.Cliente> | undefined> {
      let select = live(query.accountId);
      if (query.after !== undefined) {
        const anchor = await db
          .selectFrom("clientes")
          .select("seq")
          .where("id", "=", query.after)
          .where("account_id", "=", query.accountId)
          .executeTakeFirst();
        if (!anchor) return undefined;
        select = select.where("seq", ">", anchor.seq);
      }
      if (query.docTipo !== undefined) select = select.where("doc_tipo", "=", query.docTipo);
      if (query.docNro !== undefined) select = select.where("doc_nro", "=", query.docNro);
      if (query.q !== undefined) {
        select = select.where(
          sql<string>`lower(translate(razon_social, ${ACCENTED}, ${UNACCENTED}))`,
          "like",
          containsPattern(query.q),
        );
      }
      const rows = await select
        .orderBy("seq")
        .limit(query.limit + 1)
        .execute();
      return keysetPage(rows, query.limit, toCliente);
    },

    /**
     * Applies `changes` under a row lock, after `check` accepts the resulting document: a
     * PATCH may change only docTipo or only docNro, and the pair must stay valid.
     */
    async update(
      accountId: string,
      id: string,
      changes: catalog.ClienteChanges,
      check: (docTipo: number, docNro: string) => AppError | undefined,
    ): Promise<ClienteUpdateOutcome> {
      try {
        return await db.transaction().execute(async (tx) => {
          const current = await tx
            .selectFrom("clientes")
            .select(["doc_tipo", "doc_nro"])
            .where("id", "=", id)
            .where("account_id", "=", accountId)
            .where("deleted_at", "is", null)
            .forUpdate()
            .executeTakeFirst();
          if (!current) return { kind: "not_found" } as const;
          const error = check(
            changes.docTipo ?? current.doc_tipo,
            changes.docNro ?? current.doc_nro,
          );
          if (error) return { kind: "refused", error } as const;
          const set: Updateable<ClientesTable> = { updated_at: new Date() };
          if (changes.docTipo !== undefined) set.doc_tipo = changes.docTipo;
          if (changes.docNro !== undefined) set.doc_nro = changes.docNro;
          if (changes.razonSocial !== undefined) set.razon_social = changes.razonSocial;
          if (changes.condicionIvaReceptorId !== undefined)
            set.condicion_iva_receptor_id = changes.condicionIvaReceptorId;
          if (changes.email !== undefined) set.email = changes.email;
          if (changes.domicilio !== undefined) set.domicilio = changes.domicilio;
          const row = await tx
            .updateTable("clientes")
            .set(set)
            .where("id", "=", id)
            .returningAll()
            .executeTakeFirstOrThrow();
          return { kind: "updated", cliente: toCliente(row) } as const;
        });
      } catch (error) {
        if (isUniqueViolation(error, DOCUMENTO_VIVO)) return { kind: "duplicate" };
        throw error;
      }
    },

    /** False when there was no live customer to delete. */
    async softDelete(accountId: string, id: string): Promise<boolean> {
      const row = await db
        .updateTable("clientes")
        .set({ deleted_at: new Date() })
        .where("id", "=", id)
        .where("account_id", "=", accountId)
        .where("deleted_at", "is", null)
        .returning("id")
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}

export type ClientesRepository = ReturnType<typeof makeClientesRepository>;
