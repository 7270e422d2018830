import type { Kysely } from "kysely";
import type { ComprobanteRef } from "../../domain/comprobante-ref.js";
import type { PdfDatabase } from "../database.js";

/** The voucher a live link names. */
export interface LinkTarget extends ComprobanteRef {
  readonly accountId: string;
}

export function makeLinksRepository(db: Kysely<PdfDatabase>) {
  return {
    async insert(tokenHash: Buffer, target: LinkTarget, expiresAt: Date): Promise<void> {
      await db
        .insertInto("links")
        .values({
          token_hash: tokenHash,
          account_id: target.accountId,
          environment: target.environment,
          cuit: target.representada,
          pto_vta: target.ptoVta,
          cbte_tipo: target.cbteTipo,
          cbte_nro: target.cbteNro,
          expires_at: expiresAt,
        })
        .execute();
    },
    /** The voucher of the link with this hash while it is live at `now`. */
    async findLive(tokenHash: Buffer, now: Date): Promise<LinkTarget | undefined> {
      const row = await db
        .selectFrom("links")
        .selectAll()
        .where("token_hash", "=", tokenHash)
        .where("expires_at", ">", now)
        .executeTakeFirst();
      return (
        row && {
          accountId: row.account_id,
          environment: row.environment,
          representada: row.cuit,
          ptoVta: row.pto_vta,
          cbteTipo: row.cbte_tipo,
          cbteNro: Number(row.cbte_nro),
        }
      );
    },
  };
}

export type LinksRepository = ReturnType<typeof makeLinksRepository>;
