import { ticket } from "@pasarela/contracts";
import { sql, type Kysely } from "@pasarela/db";
import { gauge } from "@pasarela/telemetry";
import type { TicketDatabase } from "../db/database.js";

/** Days ahead within which an active certificate counts as expiring: the dashboard's por_vencer. */
const EXPIRING_WITHIN_DAYS = ticket.CERTIFICATE_EXPIRING_DAYS;

/**
 * Active certificates by environment that have expired or expire within 30 days, read from the
 * database when metrics are scraped: the authority refuses every login once one expires.
 */
export function watchCertificateExpiry(db: Kysely<TicketDatabase>): void {
  gauge(
    "pasarela_certificates_expiring",
    `Active certificates already expired (window="expired") or expiring within ${EXPIRING_WITHIN_DAYS} days (window="30d")`,
    ["environment", "window"],
    {
      service: "ticket",
      async collect() {
        const rows = await db
          .selectFrom("certificates as c")
          .innerJoin("representadas as r", "r.id", "c.representada_id")
          .select([
            "r.environment",
            sql<string>`count(*) filter (where c.not_after < now())`.as("expired"),
            sql<string>`count(*) filter (where c.not_after >= now() and c.not_after < now() + make_interval(days => ${EXPIRING_WITHIN_DAYS}))`.as(
              "expiring",
            ),
          ])
          .where("c.status", "=", "active")
          .groupBy("r.environment")
          .execute();
        this.reset();
        for (const environment of ["homologacion", "produccion"]) {
          const row = rows.find((r) => r.environment === environment);
          this.set({ environment, window: "expired" }, Number(row?.expired ?? 0));
          this.set({ environment, window: "30d" }, Number(row?.expiring ?? 0));
        }
      },
    },
  );
}
