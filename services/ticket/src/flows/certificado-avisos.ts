import type { Bus } from "@pasarela/bus";
import { sql, type Kysely } from "@pasarela/db";
import type { Logger } from "@pasarela/telemetry";
import type { TicketDatabase } from "../db/database.js";
import { ticket, type EventOf } from "@pasarela/contracts";
import { avisoDue, avisoEvent, type AvisoEvent } from "../domain/certificado-aviso.js";

/** Active certificates this close to expiry (or past it) are looked at. */
const WINDOW_DAYS = 30;
/** At most this many recorded notices announced per round; the rest in the next one. */
const BATCH = 200;

/**
 * One round of the expiry check: every active certificate within 30 days of its notAfter (or
 * past it) gets the notice it is due recorded once (the row's key is certificate and notice, so
 * instances checking at the same time record it once), then every recorded notice not yet
 * announced is published. Event ids are one per certificate and notice: publishing twice (two
 * instances, a crash before marking) is de-duplicated by the stream and by the webhooks'
 * deliveries.
 */
export async function checkCertificateExpiry(deps: {
  db: Kysely<TicketDatabase>;
  bus: Pick<Bus, "publish">;
  logger: Logger;
  now: Date;
}): Promise<{ recorded: number; announced: number }> {
  const { db, now } = deps;
  const candidates = await db
    .selectFrom("certificates as c")
    .innerJoin("representadas as r", "r.id", "c.representada_id")
    .select([
      "c.id",
      "c.representada_id",
      "c.certificate_pem",
      "c.fingerprint",
      "c.not_after",
      "r.account_id",
      "r.cuit",
      "r.environment",
      sql<
        string[]
      >`coalesce((select array_agg(a.aviso) from certificado_avisos a where a.certificate_id = c.id), '{}')`.as(
        "announced",
      ),
    ])
    .where("c.status", "=", "active")
    .where("c.not_after", "<=", new Date(now.getTime() + WINDOW_DAYS * 86_400_000))
    // an expired one whose expiry was announced has nothing left to say
    .where(
      sql<boolean>`not exists (select 1 from certificado_avisos v where v.certificate_id = c.id and v.aviso = 'vencido')`,
    )
    .orderBy("c.not_after")
    .execute();
  let recorded = 0;
  for (const row of candidates) {
    if (!row.not_after || !row.certificate_pem || !row.fingerprint) continue;
    const aviso = avisoDue(row.not_after, now, row.announced);
    if (!aviso) continue;
    const event = avisoEvent(
      aviso,
      {
        certificateId: row.id,
        representadaId: row.representada_id,
        accountId: row.account_id,
        cuit: row.cuit,
        environment: row.environment,
        certificatePem: row.certificate_pem,
        fingerprint: row.fingerprint,
        notAfter: row.not_after,
      },
      now,
    );
    const inserted = await db
      .insertInto("certificado_avisos")
      .values({
        certificate_id: row.id,
        aviso,
        // as text, so the driver cannot take the JSON for a string value and encode it again
        event: sql<string>`${JSON.stringify(event)}::text::jsonb`,
        created_at: now,
      })
      .onConflict((oc) => oc.columns(["certificate_id", "aviso"]).doNothing())
      .returning("aviso")
      .executeTakeFirst();
    if (inserted) recorded += 1;
  }

  const pending = await db
    .selectFrom("certificado_avisos")
    .select(["certificate_id", "aviso", "event"])
    .where("published_at", "is", null)
    .orderBy("created_at")
    .limit(BATCH)
    .execute();
  for (const notice of pending) {
    const event = notice.event as AvisoEvent;
    const options = { accountId: event.accountId };
    // the body is parsed against its contract on publishing, as any event
    await (notice.aviso === "vencido"
      ? deps.bus.publish(ticket.certificadoVencido, event, options)
      : deps.bus.publish(
          ticket.certificadoPorVencer,
          event as EventOf<typeof ticket.certificadoPorVencer>,
          options,
        ));
    await db
      .updateTable("certificado_avisos")
      .set({ published_at: new Date() })
      .where("certificate_id", "=", notice.certificate_id)
      .where("aviso", "=", notice.aviso)
      .execute();
    deps.logger.info(
      { certificateId: notice.certificate_id, aviso: notice.aviso, cuit: event.cuit },
      "certificate expiry announced",
    );
  }
  return { recorded, announced: pending.length };
}

/**
 * The periodic expiry check: at start and every `intervalMs` (an hour by default), one round
 * at a time per process. A failed round is logged and the next one tries again.
 */
export function startCertificateExpiryCheck(deps: {
  db: Kysely<TicketDatabase>;
  bus: Pick<Bus, "publish">;
  logger: Logger;
  intervalMs: number;
  now: () => Date;
}): { check: () => Promise<void>; stop: () => Promise<void> } {
  let running: Promise<void> | undefined;
  const check = (): Promise<void> =>
    (running ??= checkCertificateExpiry({ ...deps, now: deps.now() })
      .then(() => undefined)
      .catch((error: unknown) =>
        deps.logger.warn({ err: error }, "certificate expiry check failed"),
      )
      .finally(() => (running = undefined)));
  void check();
  const timer = setInterval(() => void check(), deps.intervalMs);
  timer.unref();
  return {
    check,
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
