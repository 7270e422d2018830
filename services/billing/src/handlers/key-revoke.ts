import type { Bus, Handler } from "@pasarela/bus";
import { billing } from "@pasarela/contracts";
import { appError, fail, ok } from "@pasarela/errors";
import type { KeysRepository } from "../db/repositories/keys.js";

/**
 * Revocation is stored first, then announced; the reply waits for the event to be in the
 * stream, so when the operator sees `revoked: true` every edge has been told.
 */
export function makeKeyRevoke(deps: {
  keys: KeysRepository;
  bus: Bus;
}): Handler<typeof billing.keyRevoke> {
  return async ({ keyId }, ctx) => {
    const row = await deps.keys.revoke(keyId);
    if (!row?.revoked_at) return fail(appError("KEY_NOT_FOUND"));
    const revokedAt = row.revoked_at.toISOString();
    await deps.bus.publish(
      billing.keyRevoked,
      { id: `key-revoked-${keyId}`, version: 1, keyId, accountId: row.account_id, revokedAt },
      { requestId: ctx.requestId },
    );
    ctx.logger.info({ keyId }, "api key revoked");
    return ok({ keyId, revoked: true as const, revokedAt });
  };
}
