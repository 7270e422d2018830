import type { Handler } from "@pasarela/bus";
import type { billing } from "@pasarela/contracts";
import { appError, fail, ok } from "@pasarela/errors";
import type { KeysRepository } from "../db/repositories/keys.js";
import { prefixOf, type Hasher } from "../domain/secrets.js";

// Compared against when the prefix is unknown, so unknown and wrong secrets cost the same.
const NO_MATCH = Buffer.alloc(32);

export function makeKeyVerify(deps: {
  keys: KeysRepository;
  hasher: Hasher;
}): Handler<typeof billing.keyVerify> {
  return async ({ secret }) => {
    const prefix = prefixOf(secret);
    const row = prefix ? await deps.keys.findByPrefix(prefix) : null;
    if (row === "unanswered") {
      // never a 401 for what the database did not say: the caller may retry
      return fail(appError("SERVICE_UNAVAILABLE", { reason: "api key lookup unanswered" }));
    }
    const matches = deps.hasher.matches(secret, row?.secret_hash ?? NO_MATCH);
    if (!row || !matches || row.revoked_at !== null) return fail(appError("UNAUTHORIZED"));
    return ok({ keyId: row.id, accountId: row.account_id, scope: row.scope });
  };
}
