import type { Handler } from "@pasarela/bus";
import { wsfe } from "@pasarela/contracts";
import { fail, invalidCursor, ok } from "@pasarela/errors";
import type { PageCursors } from "@pasarela/sealing";
import type {
  ComprobantesListadoRepository,
  ListadoRow,
} from "../db/repositories/comprobantes-listado.js";
import { autorizacionFields, estadoApi } from "../domain/autorizacion.js";
import { listadoPositionText, parseListadoPosition } from "../domain/listado.js";

const EMAIL_STATUSES = new Set(["pending", "sent", "failed"]);

/** The authority's messages of a stored jsonb list, as `{code, msg}`; anything else is skipped. */
function messagesOf(value: unknown): { code: number; msg: string }[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((m: unknown) => {
    const { code, msg } = (m ?? {}) as { code?: unknown; msg?: unknown };
    return typeof code === "number" && typeof msg === "string" ? [{ code, msg }] : [];
  });
}

function itemOf(row: ListadoRow): wsfe.ComprobanteListItem {
  const email =
    row.email_to !== null && row.email_status !== null && EMAIL_STATUSES.has(row.email_status)
      ? {
          to: row.email_to,
          status: row.email_status as "pending" | "sent" | "failed",
          error: row.email_error,
        }
      : null;
  const autorizacion = {
    state: row.state,
    tipoAutorizacion: row.tipo_autorizacion,
    cae: row.cae,
    caeVencimiento: row.cae_vencimiento,
    caeaEstado: row.caea_estado,
    caeaInformadoAt: row.caea_informado_at,
  };
  const state = estadoApi(autorizacion);
  return {
    id: row.id,
    state,
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
    ...autorizacionFields(autorizacion),
    email,
    createdAt: row.created_at.toISOString(),
    ...(state === "rejected" || state === "caea_rechazado"
      ? { rechazo: [...messagesOf(row.errores), ...messagesOf(row.observaciones)] }
      : {}),
  };
}

/**
 * `wsfe.comprobante.list`: the account's vouchers, newest first, one more row read to know if
 * a page follows. The cursor holds the last row's position, sealed to the account, this list
 * and its filters.
 */
export function makeComprobanteList(deps: {
  listado: ComprobantesListadoRepository;
  cursors: PageCursors;
}): Handler<typeof wsfe.comprobanteList> {
  return async ({ limit, cursor, representada, ...filters }, ctx) => {
    const scope = {
      list: wsfe.comprobanteList.subject,
      accountId: ctx.accountId,
      filters: { ...filters, representada },
    };
    const opened = cursor === undefined ? undefined : deps.cursors.read(scope, cursor);
    const after = opened === undefined ? undefined : parseListadoPosition(opened);
    if (cursor !== undefined && !after) return fail(invalidCursor());
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
          ? deps.cursors.issue(
              scope,
              listadoPositionText({ createdAt: last.created_at_key, id: last.id }),
            )
          : null,
    });
  };
}
