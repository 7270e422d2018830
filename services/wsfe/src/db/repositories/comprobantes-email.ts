import type { Kysely } from "kysely";
import type { WsfeDatabase } from "../database.js";
import type { ComprobanteKey, EmailRecord } from "../../domain/comprobante.js";

export function makeComprobantesEmailRepository(db: Kysely<WsfeDatabase>) {
  const whereKey = (key: ComprobanteKey) =>
    db
      .selectFrom("comprobantes_email")
      .where("account_id", "=", key.accountId)
      .where("environment", "=", key.environment)
      .where("cuit", "=", key.cuit)
      .where("pto_vta", "=", key.ptoVta)
      .where("cbte_tipo", "=", key.cbteTipo)
      .where("cbte_nro", "=", String(key.cbteNro));
  return {
    /**
     * How delivery ended: only a `pending` record of that recipient moves, so a late report
     * never overwrites a newer send. Answers whether it moved.
     */
    async settle(
      key: ComprobanteKey,
      to: string,
      outcome: { status: "sent" | "failed"; error: string | null },
    ): Promise<boolean> {
      const result = await db
        .updateTable("comprobantes_email")
        .where("account_id", "=", key.accountId)
        .where("environment", "=", key.environment)
        .where("cuit", "=", key.cuit)
        .where("pto_vta", "=", key.ptoVta)
        .where("cbte_tipo", "=", key.cbteTipo)
        .where("cbte_nro", "=", String(key.cbteNro))
        .where("email_to", "=", to)
        .where("status", "=", "pending")
        .set({ status: outcome.status, error: outcome.error, updated_at: new Date() })
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    async find(key: ComprobanteKey): Promise<EmailRecord | undefined> {
      const row = await whereKey(key).select(["email_to", "status", "error"]).executeTakeFirst();
      return row && { to: row.email_to, status: row.status, error: row.error };
    },
    /** Records (or replaces) the e-mail state of one voucher. */
    async save(key: ComprobanteKey, email: EmailRecord): Promise<void> {
      await db
        .insertInto("comprobantes_email")
        .values({
          account_id: key.accountId,
          environment: key.environment,
          cuit: key.cuit,
          pto_vta: key.ptoVta,
          cbte_tipo: key.cbteTipo,
          cbte_nro: key.cbteNro,
          email_to: email.to,
          status: email.status,
          error: email.error,
        })
        .onConflict((c) =>
          c
            .columns(["account_id", "environment", "cuit", "pto_vta", "cbte_tipo", "cbte_nro"])
            .doUpdateSet({
              email_to: email.to,
              status: email.status,
              error: email.error,
              updated_at: new Date(),
            }),
        )
        .execute();
    },
  };
}

export type ComprobantesEmailRepository = ReturnType<typeof makeComprobantesEmailRepository>;
