import { z } from "zod";
import {
  exportacionHttpReply,
  exportacionHttpReplySchema,
  exportacionIssueReplySchema,
  type ExportacionIssueReply,
} from "./exportacion-reply.js";
import {
  facturaHttpReply,
  facturaHttpReplySchema,
  facturaIssueReplySchema,
  type FacturaIssueReply,
} from "./factura-reply.js";
import { isExportCbteTipo } from "./issued-cbte-tipo.js";

/** An authorized voucher's reply over NATS, domestic or export (amounts as decimal text). */
export const issuedReplySchema = z.union([facturaIssueReplySchema, exportacionIssueReplySchema]);
export type IssuedReply = FacturaIssueReply | ExportacionIssueReply;

/** An authorized voucher's 200 body, domestic or export. */
export const issuedHttpReplySchema = z.union([facturaHttpReplySchema, exportacionHttpReplySchema]);
export type IssuedHttpReply = z.output<typeof issuedHttpReplySchema>;

/** The reply as the HTTP answer gives it, whichever kind of voucher it is. */
export function issuedHttpReply(reply: IssuedReply): IssuedHttpReply {
  return isExportCbteTipo(reply.cbteTipo)
    ? exportacionHttpReply(reply as ExportacionIssueReply)
    : facturaHttpReply(reply as FacturaIssueReply);
}
