import { ticket } from "@pasarela/contracts";
import type { Kysely } from "kysely";
import type { ComprobanteRef } from "../../domain/comprobante-ref.js";
import type { PdfDatabase } from "../database.js";

/** The issuer each voucher of an account prints, fixed at its first print. */
export interface EmisoresRepository {
  /** the issuer fixed for the voucher, if it was printed before */
  find(accountId: string, ref: ComprobanteRef): Promise<ticket.Emisor | undefined>;
  /**
   * Fixes `emisor` for the voucher unless one already is, and answers the one fixed: of two
   * first prints at once, both print what the first to arrive fixed.
   */
  fix(accountId: string, ref: ComprobanteRef, emisor: ticket.Emisor): Promise<ticket.Emisor>;
}

export function makeEmisoresRepository(db: Kysely<PdfDatabase>): EmisoresRepository {
  const key = (accountId: string, ref: ComprobanteRef) => ({
    account_id: accountId,
    environment: ref.environment,
    cuit: ref.representada,
    pto_vta: ref.ptoVta,
    cbte_tipo: ref.cbteTipo,
    cbte_nro: ref.cbteNro,
  });
  async function find(accountId: string, ref: ComprobanteRef) {
    const k = key(accountId, ref);
    const row = await db
      .selectFrom("comprobante_emisores")
      .select("emisor")
      .where("account_id", "=", k.account_id)
      .where("environment", "=", k.environment)
      .where("cuit", "=", k.cuit)
      .where("pto_vta", "=", k.pto_vta)
      .where("cbte_tipo", "=", k.cbte_tipo)
      .where("cbte_nro", "=", String(k.cbte_nro))
      .executeTakeFirst();
    return row && ticket.emisorSchema.parse(row.emisor);
  }
  return {
    find,
    async fix(accountId, ref, emisor) {
      await db
        .insertInto("comprobante_emisores")
        .values({ ...key(accountId, ref), emisor })
        .onConflict((oc) => oc.doNothing())
        .execute();
      const fixed = await find(accountId, ref);
      if (!fixed) throw new Error("the issuer just fixed does not read back");
      return fixed;
    },
  };
}
