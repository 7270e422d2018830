import type { Handler } from "@pasarela/bus";
import type { pdf } from "@pasarela/contracts";
import { appError, fail } from "@pasarela/errors";
import type { Documents } from "../flows/documents.js";

/** Without an account nothing is the caller's, the same 404 as a stranger's voucher. */
export function makeComprobanteRender(documents: Documents): Handler<typeof pdf.comprobanteRender> {
  return async ({ copia, ...ref }, ctx) => {
    if (!ctx.accountId) return fail(appError("COMPROBANTE_NOT_FOUND"));
    return documents.document(ctx.accountId, ref, copia ?? "original", ctx);
  };
}
