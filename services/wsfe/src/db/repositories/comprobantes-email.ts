import { sql, type Kysely } from "kysely";
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
     * The voucher the e-mail is about, as issued through the gateway: its id, final state, the
     * issuance's `email` and the receiver's customer id. An authorized one wins over a
     * rejected attempt on the same number; other states are not vouchers yet.
     */
    async findVoucher(key: ComprobanteKey): Promise<EmailVoucher | undefined> {
      const row = await db
        .selectFrom("comprobantes")
        .where("account_id", "=", key.accountId)
        .where("environment", "=", key.environment)
        .where("cuit", "=", key.cuit)
        .where("pto_vta", "=", key.ptoVta)
        .where("cbte_tipo", "=", key.cbteTipo)
        .where("cbte_nro", "=", String(key.cbteNro))
        .where("state", "in", ["authorized", "rejected"])
        .select(["id", "state", "email_to", "request"])
        .orderBy(sql`state = 'authorized'`, "desc")
        .limit(1)
        .executeTakeFirst();
      if (!row) return undefined;
      const receptor = (row.request as { receptor?: { clienteId?: unknown } } | null)?.receptor;
      return {
        id: row.id,
        authorized: row.state === "authorized",
        emailTo: row.email_to,
        clienteId: typeof receptor?.clienteId === "string" ? receptor.clienteId : null,
      };
    },
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

/** What sending a voucher by e-mail needs to know of it. */
export interface EmailVoucher {
  readonly id: string;
  readonly authorized: boolean;
  /** the issuance's `email` */
  readonly emailTo: string | null;
  /** the receiver as a stored customer, when issued with `clienteId` */
  readonly clienteId: string | null;
}

export type ComprobantesEmailRepository = ReturnType<typeof makeComprobantesEmailRepository>;
