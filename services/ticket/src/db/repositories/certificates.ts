import type { Kysely, Selectable } from "kysely";
import type { CertificatesTable, TicketDatabase } from "../database.js";

export type CertificateRow = Selectable<CertificatesTable>;
export type CurrentCertificate = Pick<CertificateRow, "status" | "not_before" | "not_after">;

export interface Activation {
  representadaId: string;
  /** the pending row whose key the certificate matches, or a new row for an uploaded pair */
  target: { kind: "pending"; id: string } | { kind: "new"; id: string; privateKeySealed: Buffer };
  certificatePem: string;
  fingerprint: string;
  notBefore: Date;
  notAfter: Date;
}

export function makeCertificatesRepository(db: Kysely<TicketDatabase>) {
  const byStatus = (representadaId: string, status: CertificatesTable["status"]) =>
    db
      .selectFrom("certificates")
      .selectAll()
      .where("representada_id", "=", representadaId)
      .where("status", "=", status)
      .executeTakeFirst();

  return {
    active: (representadaId: string) => byStatus(representadaId, "active"),
    pending: (representadaId: string) => byStatus(representadaId, "pending"),

    /**
     * One transaction: the previous active certificate becomes `replaced`; the pending CSR
     * becomes the active certificate, or, for a pair uploaded from outside, is `cancelled`
     * and the new row becomes active. Answers the activation time.
     */
    async activate(activation: Activation): Promise<Date> {
      const activatedAt = new Date();
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable("certificates")
          .set({ status: "replaced" })
          .where("representada_id", "=", activation.representadaId)
          .where("status", "=", "active")
          .execute();
        const certificate = {
          certificate_pem: activation.certificatePem,
          fingerprint: activation.fingerprint,
          not_before: activation.notBefore,
          not_after: activation.notAfter,
          activated_at: activatedAt,
        };
        if (activation.target.kind === "pending") {
          await trx
            .updateTable("certificates")
            .set({ ...certificate, status: "active" })
            .where("id", "=", activation.target.id)
            .execute();
          return;
        }
        await trx
          .updateTable("certificates")
          .set({ status: "cancelled" })
          .where("representada_id", "=", activation.representadaId)
          .where("status", "=", "pending")
          .execute();
        await trx
          .insertInto("certificates")
          .values({
            id: activation.target.id,
            representada_id: activation.representadaId,
            status: "active",
            private_key_sealed: activation.target.privateKeySealed,
            csr_pem: null,
            ...certificate,
          })
          .execute();
      });
      return activatedAt;
    },

    /** The newest active or pending row per representada, for listings. */
    async current(representadaIds: readonly string[]): Promise<Map<string, CurrentCertificate>> {
      const result = new Map<string, CurrentCertificate>();
      if (representadaIds.length === 0) return result;
      const rows = await db
        .selectFrom("certificates")
        .select(["representada_id", "status", "not_before", "not_after"])
        .where("representada_id", "in", representadaIds)
        .where("status", "in", ["active", "pending"])
        .execute();
      for (const row of rows) {
        // an active certificate says more than a CSR waiting beside it
        if (row.status === "active" || !result.has(row.representada_id)) {
          result.set(row.representada_id, {
            status: row.status,
            not_before: row.not_before,
            not_after: row.not_after,
          });
        }
      }
      return result;
    },
  };
}

export type CertificatesRepository = ReturnType<typeof makeCertificatesRepository>;
