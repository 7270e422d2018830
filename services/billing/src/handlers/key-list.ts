import type { Handler } from "@pasarela/bus";
import type { billing } from "@pasarela/contracts";
import { appError, fail, ok } from "@pasarela/errors";
import type { AccountsRepository } from "../db/repositories/accounts.js";
import type { KeysRepository } from "../db/repositories/keys.js";

export function makeKeyList(deps: {
  accounts: AccountsRepository;
  keys: KeysRepository;
}): Handler<typeof billing.keyList> {
  return async ({ accountId }) => {
    if (!(await deps.accounts.exists(accountId))) return fail(appError("ACCOUNT_NOT_FOUND"));
    const rows = await deps.keys.listByAccount(accountId);
    return ok({
      keys: rows.map((row) => ({
        keyId: row.id,
        prefix: row.prefix,
        scope: row.scope,
        createdAt: row.created_at.toISOString(),
        revokedAt: row.revoked_at?.toISOString() ?? null,
        lastUsedAt: row.last_used_at?.toISOString() ?? null,
      })),
    });
  };
}
