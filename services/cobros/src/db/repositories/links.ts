import { sql, type Kysely, type Selectable } from "kysely";
import type { cobros } from "@pasarela/contracts";
import type { CobrosDatabase, LinksTable } from "../database.js";

export interface NewLink {
  readonly id: string;
  readonly accountId: string;
  readonly comprobante: cobros.LinkCobro["comprobante"];
  readonly monto: string;
  readonly vence: Date;
  readonly preferenceId: string;
  readonly url: string;
}

/** A stored link with what the webhook needs besides the API's view. */
export interface StoredLink {
  readonly view: cobros.LinkCobro;
  readonly accountId: string;
}

function toStored(row: Selectable<LinksTable>, now: Date): StoredLink {
  // a pending link past its date shows as `vencido`; the provider refuses it as well
  const estado = row.estado === "pendiente" && row.vence <= now ? "vencido" : row.estado;
  return {
    accountId: row.account_id,
    view: {
      id: row.id,
      url: row.url,
      estado,
      monto: row.monto,
      moneda: row.moneda,
      vence: row.vence.toISOString(),
      comprobante: {
        environment: row.environment,
        representada: row.cuit,
        ptoVta: row.pto_vta,
        cbteTipo: row.cbte_tipo,
        cbteNro: Number(row.cbte_nro),
      },
      pagadoAt: row.pagado_at ? row.pagado_at.toISOString() : null,
      createdAt: row.created_at.toISOString(),
    },
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function makeLinksRepository(db: Kysely<CobrosDatabase>) {
  return {
    async insert(link: NewLink): Promise<StoredLink> {
      const row = await db
        .insertInto("links")
        .values({
          id: link.id,
          account_id: link.accountId,
          environment: link.comprobante.environment,
          cuit: link.comprobante.representada,
          pto_vta: link.comprobante.ptoVta,
          cbte_tipo: link.comprobante.cbteTipo,
          cbte_nro: link.comprobante.cbteNro,
          monto: link.monto,
          moneda: "ARS",
          vence: link.vence,
          estado: "pendiente",
          provider: "mercadopago",
          preference_id: link.preferenceId,
          url: link.url,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toStored(row, new Date());
    },

    /** A link of the account; a malformed id is simply not found. */
    async find(accountId: string, id: string): Promise<StoredLink | undefined> {
      if (!UUID.test(id)) return undefined;
      const row = await db
        .selectFrom("links")
        .selectAll()
        .where("id", "=", id)
        .where("account_id", "=", accountId)
        .executeTakeFirst();
      return row && toStored(row, new Date());
    },

    async list(
      accountId: string,
      options: {
        limit: number;
        estado?: cobros.LinkCobro["estado"] | undefined;
        environment?: cobros.LinkCobro["comprobante"]["environment"] | undefined;
        representada?: string | undefined;
        ptoVta?: number | undefined;
        cbteTipo?: number | undefined;
        cbteNro?: number | undefined;
        comprobantes?:
          | readonly { representada: string; ptoVta: number; cbteTipo: number; cbteNro: number }[]
          | undefined;
      },
    ): Promise<StoredLink[]> {
      let query = db
        .selectFrom("links")
        .selectAll()
        .where("account_id", "=", accountId)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(options.limit);
      if (options.environment) query = query.where("environment", "=", options.environment);
      if (options.representada) query = query.where("cuit", "=", options.representada);
      if (options.ptoVta !== undefined) query = query.where("pto_vta", "=", options.ptoVta);
      if (options.cbteTipo !== undefined) query = query.where("cbte_tipo", "=", options.cbteTipo);
      if (options.cbteNro !== undefined) {
        query = query.where("cbte_nro", "=", String(options.cbteNro));
      }
      const vouchers = options.comprobantes;
      if (vouchers && vouchers.length > 0) {
        query = query.where((eb) =>
          eb.or(
            vouchers.map((c) =>
              eb.and([
                eb("cuit", "=", c.representada),
                eb("pto_vta", "=", c.ptoVta),
                eb("cbte_tipo", "=", c.cbteTipo),
                eb("cbte_nro", "=", String(c.cbteNro)),
              ]),
            ),
          ),
        );
      }
      if (options.estado === "pagado") query = query.where("estado", "=", "pagado");
      if (options.estado === "pendiente") {
        query = query.where("estado", "=", "pendiente").where("vence", ">", sql<Date>`now()`);
      }
      if (options.estado === "vencido") {
        query = query.where("estado", "=", "pendiente").where("vence", "<=", sql<Date>`now()`);
      }
      const now = new Date();
      return (await query.execute()).map((row) => toStored(row, now));
    },

    /** Pending → pagado, once: answers the link only when this call moved it. */
    async markPaid(
      accountId: string,
      id: string,
      payment: { id: string; at: Date },
    ): Promise<StoredLink | undefined> {
      const row = await db
        .updateTable("links")
        .set({ estado: "pagado", payment_id: payment.id, pagado_at: payment.at })
        .where("id", "=", id)
        .where("account_id", "=", accountId)
        .where("estado", "=", "pendiente")
        .returningAll()
        .executeTakeFirst();
      return row && toStored(row, new Date());
    },
  };
}

export type LinksRepository = ReturnType<typeof makeLinksRepository>;
