import { randomUUID } from "node:crypto";
import type { Handler } from "@pasarela/bus";
import type { billing } from "@pasarela/contracts";
import { appError, fail, ok } from "@pasarela/errors";
import type { AccountsRepository } from "../db/repositories/accounts.js";
import type { KeysRepository } from "../db/repositories/keys.js";
import { generateSecret, type Hasher } from "../domain/secrets.js";

export function makeKeyCreate(deps: {
  accounts: AccountsRepository;
  keys: KeysRepository;
  hasher: Hasher;
}): Handler<typeof billing.keyCreate> {
  return async ({ accountId, scope }, ctx) => {
    if (!(await deps.accounts.exists(accountId))) return fail(appError("ACCOUNT_NOT_FOUND"));
    const { prefix, secret } = generateSecret();
    const row = await deps.keys.insert({
      id: randomUUID(),
      account_id: accountId,
      prefix,
      secret_hash: deps.hasher.hash(secret),
      scope,
    });
    ctx.logger.info({ keyId: row.id, prefix, scope }, "api key created");
    return ok({ keyId: row.id, prefix, secret, scope, createdAt: row.created_at.toISOString() });
  };
}
