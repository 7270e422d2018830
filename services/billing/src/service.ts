import { bind, type Binding, type Bus } from "@pasarela/bus";
import { billing } from "@pasarela/contracts";
import type { Kysely } from "@pasarela/db";
import type { AccountingSettings } from "./accounting/settings.js";
import type { BillingDatabase } from "./db/database.js";
import { makeAccountsRepository } from "./db/repositories/accounts.js";
import { makeKeysRepository } from "./db/repositories/keys.js";
import { makeHasher } from "./domain/secrets.js";
import { makeAccountCreate } from "./handlers/account-create.js";
import { makeFacturaAdmit } from "./handlers/factura-admit.js";
import { makeFacturaComplete } from "./handlers/factura-complete.js";
import { makeKeyCreate } from "./handlers/key-create.js";
import { makeKeyList } from "./handlers/key-list.js";
import { makeKeyRevoke } from "./handlers/key-revoke.js";
import { makeKeyVerify } from "./handlers/key-verify.js";
import {
  makeAccountUsage,
  makePlanAssign,
  makePlanCreate,
  makePlanList,
} from "./handlers/plans.js";
import { makeQuotaCommit, makeQuotaRelease, makeQuotaReserve } from "./handlers/quota.js";
import { makeUsageList, makeUsageSummary } from "./handlers/usage.js";

/** Wiring only: repositories and handlers bound to their subjects. */
export function billingBindings(deps: {
  db: Kysely<BillingDatabase>;
  bus: Bus;
  pepper: string;
  settings: AccountingSettings;
}): Binding[] {
  const accounts = makeAccountsRepository(deps.db);
  const keys = makeKeysRepository(deps.db);
  const hasher = makeHasher(deps.pepper);
  const { db, settings } = deps;
  return [
    bind(billing.accountCreate, makeAccountCreate(accounts)),
    bind(billing.keyCreate, makeKeyCreate({ accounts, keys, hasher })),
    bind(billing.keyList, makeKeyList({ accounts, keys })),
    bind(billing.keyRevoke, makeKeyRevoke({ keys, bus: deps.bus })),
    bind(billing.keyVerify, makeKeyVerify({ keys, hasher })),
    bind(billing.facturaAdmit, makeFacturaAdmit({ db, settings })),
    bind(billing.facturaComplete, makeFacturaComplete({ db, settings })),
    bind(billing.quotaReserve, makeQuotaReserve({ db, settings })),
    bind(billing.quotaCommit, makeQuotaCommit({ db })),
    bind(billing.quotaRelease, makeQuotaRelease({ db })),
    bind(billing.planCreate, makePlanCreate(db)),
    bind(billing.planList, makePlanList(db)),
    bind(billing.planAssign, makePlanAssign({ db, settings })),
    bind(billing.accountUsage, makeAccountUsage({ db, settings })),
    bind(billing.usageList, makeUsageList(db)),
    bind(billing.usageSummary, makeUsageSummary({ db, settings })),
  ];
}
