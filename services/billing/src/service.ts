import { bind, type Binding, type Bus } from "@pasarela/bus";
import { billing } from "@pasarela/contracts";
import type { Kysely } from "@pasarela/db";
import type { BillingDatabase } from "./db/database.js";
import { makeAccountsRepository } from "./db/repositories/accounts.js";
import { makeKeysRepository } from "./db/repositories/keys.js";
import { makeHasher } from "./domain/secrets.js";
import { makeAccountCreate } from "./handlers/account-create.js";
import { makeKeyCreate } from "./handlers/key-create.js";
import { makeKeyList } from "./handlers/key-list.js";
import { makeKeyRevoke } from "./handlers/key-revoke.js";
import { makeKeyVerify } from "./handlers/key-verify.js";

/** Wiring only: repositories and handlers bound to their subjects. */
export function billingBindings(deps: {
  db: Kysely<BillingDatabase>;
  bus: Bus;
  pepper: string;
}): Binding[] {
  const accounts = makeAccountsRepository(deps.db);
  const keys = makeKeysRepository(deps.db);
  const hasher = makeHasher(deps.pepper);
  return [
    bind(billing.accountCreate, makeAccountCreate(accounts)),
    bind(billing.keyCreate, makeKeyCreate({ accounts, keys, hasher })),
    bind(billing.keyList, makeKeyList({ accounts, keys })),
    bind(billing.keyRevoke, makeKeyRevoke({ keys, bus: deps.bus })),
    bind(billing.keyVerify, makeKeyVerify({ keys, hasher })),
  ];
}
