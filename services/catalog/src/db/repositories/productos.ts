import type { catalog } from "@pasarela/contracts";
import { sql, type Kysely, type Selectable, type Updateable } from "kysely";
import { ACCENTED, containsPattern, UNACCENTED } from "../../domain/search.js";
import type { CatalogDatabase, ProductosTable } from "../database.js";
import { keysetPage, type KeysetPage, type KeysetQuery } from "./keyset.js";

type ProductoRow = Selectable<ProductosTable>;

// VAT rates are a closed list of values exact in binary (0, 2.5, 5, 10.5, 21, 27), so they
// may travel as JSON numbers; the price never becomes a number.
const alicuotaToColumn = (value: number | null | undefined): string | null =>
  value === null || value === undefined ? null : String(value);

function toProducto(row: ProductoRow): catalog.Producto {
  return {
    id: row.id,
    codigo: row.codigo,
    descripcion: row.descripcion,
    precioUnitario: row.precio_unitario,
    alicuotaIva: row.alicuota_iva === null ? null : Number(row.alicuota_iva),
    unidadMedida: row.unidad_medida,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** Every query is scoped to one account and to live rows: other rows do not exist here. */
export function makeProductosRepository(db: Kysely<CatalogDatabase>) {
  const live = (accountId: string) =>
    db
      .selectFrom("productos")
      .selectAll()
      .where("account_id", "=", accountId)
      .where("deleted_at", "is", null);

  return {
    async insert(
      accountId: string,
      id: string,
      input: catalog.ProductoInput,
    ): Promise<catalog.Producto> {
      const row = await db
        .insertInto("productos")
        .values({
          id,
          account_id: accountId,
          codigo: input.codigo ?? null,
          descripcion: input.descripcion,
          precio_unitario: input.precioUnitario,
          alicuota_iva: alicuotaToColumn(input.alicuotaIva),
          unidad_medida: input.unidadMedida ?? null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toProducto(row);
    },

    async find(accountId: string, id: string): Promise<catalog.Producto | undefined> {
      const row = await live(accountId).where("id", "=", id).executeTakeFirst();
      return row && toProducto(row);
    },

    /**
     * One page in insertion order, and the id to continue after (null on the last); undefined
     * when `after` names no record of this account. A
     * deleted record still anchors the page after it.
     */
    async list(
      query: KeysetQuery<catalog.ProductoFilter>,
    ): Promise<KeysetPage<catalog.Producto> | undefined> {
      let select = live(query.accountId);
      if (query.after !== undefined) {
        const anchor = await db
          .selectFrom("productos")
          .select("seq")
          .where("id", "=", query.after)
          .where("account_id", "=", query.accountId)
          .executeTakeFirst();
        if (!anchor) return undefined;
        select = select.where("seq", ">", anchor.seq);
      }
      if (query.codigo !== undefined) select = select.where("codigo", "=", query.codigo);
      if (query.q !== undefined) {
        const pattern = containsPattern(query.q);
        select = select.where((eb) =>
          eb.or([
            eb(
              sql<string>`lower(translate(descripcion, ${ACCENTED}, ${UNACCENTED}))`,
              "like",
              pattern,
            ),
            eb(
              sql<string>`lower(translate(coalesce(codigo, ''), ${ACCENTED}, ${UNACCENTED}))`,
              "like",
              pattern,
            ),
          ]),
        );
      }
      const rows = await select
        .orderBy("seq")
        .limit(query.limit + 1)
        .execute();
      return keysetPage(rows, query.limit, toProducto);
    },

    /** Undefined when there is no live product with that id in the account. */
    async update(
      accountId: string,
      id: string,
      changes: catalog.ProductoChanges,
    ): Promise<catalog.Producto | undefined> {
      const set: Updateable<ProductosTable> = { updated_at: new Date() };
      if (changes.codigo !== undefined) set.codigo = changes.codigo;
      if (changes.descripcion !== undefined) set.descripcion = changes.descripcion;
      if (changes.precioUnitario !== undefined) set.precio_unitario = changes.precioUnitario;
      if (changes.alicuotaIva !== undefined)
        set.alicuota_iva = alicuotaToColumn(changes.alicuotaIva);
      if (changes.unidadMedida !== undefined) set.unidad_medida = changes.unidadMedida;
      const row = await db
        .updateTable("productos")
        .set(set)
        .where("id", "=", id)
        .where("account_id", "=", accountId)
        .where("deleted_at", "is", null)
        .returningAll()
        .executeTakeFirst();
      return row && toProducto(row);
    },

    /** False when there was no live product to delete. */
    async softDelete(accountId: string, id: string): Promise<boolean> {
      const row = await db
        .updateTable("productos")
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

export type ProductosRepository = ReturnType<typeof makeProductosRepository>;
