import type { Bus } from "@pasarela/bus";
import { billing, mail } from "@pasarela/contracts";
import type { Logger } from "@pasarela/telemetry";
import { avisoJobId } from "../domain/caea/aviso.js";

/** Whom an owner's notice addresses: the owner's name and the account's. */
export interface Titular {
  readonly destinatario: string;
  readonly cuenta: string;
}

/**
 * E-mails an account's owner a notice written for them. The mail job's id comes from
 * `eventId`, so a notice queued again after a failure in between is dropped by the stream.
 * True once queued, or when the account has no owner to tell; false when the owner could not
 * be read now (the caller tries again on a later pass).
 */
export type AvisoAlTitular = (
  accountId: string,
  eventId: string,
  write: (titular: Titular) => { subject: string; text: string },
) => Promise<boolean>;

export function makeAvisoAlTitular(deps: {
  bus: Pick<Bus, "request" | "publish">;
  logger: Logger;
  now?: () => number;
}): AvisoAlTitular {
  const now = deps.now ?? Date.now;
  return async (accountId, eventId, write) => {
    const owner = await deps.bus.request(billing.accountOwnerGet, { accountId });
    if (!owner.ok) {
      if (owner.error.code === "USER_NOT_FOUND") return true;
      deps.logger.warn({ error: owner.error.message, eventId }, "owner not read: notice deferred");
      return false;
    }
    await deps.bus.publish(mail.mensajeJob, {
      id: avisoJobId(eventId),
      to: owner.value.email,
      ...write({ destinatario: owner.value.name, cuenta: owner.value.accountName }),
      queuedAt: new Date(now()).toISOString(),
    });
    return true;
  };
}
