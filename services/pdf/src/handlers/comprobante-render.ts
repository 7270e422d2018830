import type { Handler } from "@pasarela/bus";
import type { pdf } from "@pasarela/contracts";
import type { Documents } from "../flows/documents.js";

/** The account's voucher printed; a stranger's voucher is the same 404 as an unknown one. */
export function makeComprobanteRender(documents: Documents): Handler<typeof pdf.comprobanteRender> {
  return async ({ copia, ...ref }, ctx) => {
    return documents.document(ctx.accountId, ref, copia ?? "original", ctx);
  };
}
