import type { Handler } from "@pasarela/bus";
import type { wsfe } from "@pasarela/contracts";
import { fail, invalidField, ok } from "@pasarela/errors";
import type {
  ComprobantesListadoRepository,
  ListadoRow,
} from "../db/repositories/comprobantes-listado.js";
import { decodeListadoCursor, encodeListadoCursor, listadoState } from "../domain/listado.js";

const EMAIL_STATUSES = new Set(["pending", "sent", "failed"]);

function itemOf(row: ListadoRow): wsfe.ComprobanteListItem {
  const email =
    row.email_to !== null && row.email_status !== null && EMAIL_STATUSES.has(row.email_status)
      ? {
          to: row.email_to,
          status: row.email_status as "pending" | "sent" | "failed",
          error: row.email_error,
        }
      : null;
  return {
    id: row.id,
    state: listadoState(row.state),
    environment: row.environment,
    representada: row.cuit,
    ptoVta: row.pto_vta,
    cbteTipo: row.cbte_tipo,
    cbteNro: Number(row.cbte_nro),
    cbteFch: row.cbte_fch,
    receptor: { docTipo: row.doc_tipo, docNro: String(row.doc_nro), razonSocial: row.razon_social },
    impTotal: row.imp_total,
    moneda: row.moneda_id,
    cae: row.cae,
    caeVencimiento: row.cae_vencimiento,
    email,
    createdAt: row.created_at.toISOString(),
  };
}

/** `wsfe.comprobante.list`: the account's vouchers, newest first, one more row read to know if a page follows. */
export function makeComprobanteList(deps: {
  listado: ComprobantesListadoRepository;
}): Handler<typeof wsfe.comprobanteList> {
  return async ({ limit, cursor, representada, ...filters }, ctx) => {
    if (!ctx.accountId) return ok({ items: [], nextCursor: null });
    const after = cursor === undefined ? undefined : decodeListadoCursor(cursor);
    if (cursor !== undefined && !after) {
      return fail(
        invalidField("cursor", "no es un cursor de esta API: usá el nextCursor recibido"),
      );
    }
    const rows = await deps.listado.list({
      ...filters,
      cuit: representada,
      accountId: ctx.accountId,
      after,
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return ok({
      items: page.map(itemOf),
      nextCursor:
        rows.length > limit && last
          ? encodeListadoCursor({ createdAt: last.created_at_key, id: last.id })
          : null,
    });
  };
}
