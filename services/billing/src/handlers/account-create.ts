import { randomUUID } from "node:crypto";
import type { Handler } from "@pasarela/bus";
import type { billing } from "@pasarela/contracts";
import { ok } from "@pasarela/errors";
import type { AccountsRepository } from "../db/repositories/accounts.js";

export function makeAccountCreate(
  accounts: AccountsRepository,
): Handler<typeof billing.accountCreate> {
  return async ({ name }, ctx) => {
    const accountId = randomUUID();
    await accounts.create(accountId, name);
    ctx.logger.info({ accountId }, "account created");
    return ok({ accountId });
  };
}
