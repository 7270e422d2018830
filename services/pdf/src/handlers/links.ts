import type { Handler } from "@pasarela/bus";
import type { pdf } from "@pasarela/contracts";
import { appError, fail, ok } from "@pasarela/errors";
import type { LinksRepository } from "../db/repositories/links.js";
import type { Documents } from "../flows/documents.js";
import { isTokenShape, newToken, tokenHash } from "../domain/token.js";

export interface LinkDeps {
  documents: Documents;
  links: LinksRepository;
  /** `<base>/comprobantes/<token>.pdf` */
  publicUrl: string;
  ttlMs: number;
  now: () => Date;
}

const DAY_MS = 86_400_000;
export const linkTtlMs = (days: number): number => days * DAY_MS;

/** A new link to a printable voucher of the account; only the token's hash is kept. */
export function makeLinkCreate(deps: LinkDeps): Handler<typeof pdf.linkCreate> {
  const base = deps.publicUrl.replace(/\/+$/, "");
  return async (ref, ctx) => {
    const printable = await deps.documents.printable(ctx.accountId, ref, ctx);
    if (!printable.ok) return printable;
    const token = newToken();
    const expiresAt = new Date(deps.now().getTime() + deps.ttlMs);
    await deps.links.insert(tokenHash(token), { accountId: ctx.accountId, ...ref }, expiresAt);
    return ok({
      url: `${base}/comprobantes/${token}.pdf`,
      token,
      expiresAt: expiresAt.toISOString(),
    });
  };
}

/** No account: the token alone names the voucher, and only while the link lives. */
export function makeLinkOpen(deps: LinkDeps): Handler<typeof pdf.linkOpen> {
  return async ({ token }, ctx) => {
    if (!isTokenShape(token)) return fail(appError("PDF_LINK_NOT_FOUND"));
    const target = await deps.links.findLive(tokenHash(token), deps.now());
    if (!target) return fail(appError("PDF_LINK_NOT_FOUND"));
    const { accountId, ...ref } = target;
    return deps.documents.document(accountId, ref, "original", ctx);
  };
}
