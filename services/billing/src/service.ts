import { bind, type Binding, type Bus } from "@pasarela/bus";
import { billing } from "@pasarela/contracts";
import type { Kysely } from "@pasarela/db";
import type { PageCursors } from "@pasarela/sealing";
import type { AccountingSettings } from "./flows/settings.js";
import type { BillingDatabase } from "./db/database.js";
import { makeAccountsRepository } from "./db/repositories/accounts.js";
import { makeKeysRepository } from "./db/repositories/keys.js";
import {
  makeLoginAttemptsRepository,
  type ThrottleSettings,
} from "./db/repositories/login-attempts.js";
import { makePasswordResetsRepository } from "./db/repositories/password-resets.js";
import { makeSoporteRepository } from "./db/repositories/soporte.js";
import { makeUsersRepository } from "./db/repositories/users.js";
import type { SendMessage } from "./domain/messages.js";
import { makeHasher } from "./domain/secrets.js";
import { makeAccountCreate } from "./handlers/account-create.js";
import type { CuotaAlertas } from "./flows/cuota-alertas.js";
import { makeFacturaAdmit } from "./handlers/factura-admit.js";
import { makeFacturaHold } from "./handlers/factura-hold.js";
import { makeFacturaSettle } from "./handlers/factura-settle.js";
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
import {
  makeSoporteClose,
  makeSoporteCreate,
  makeSoporteGet,
  makeSoporteList,
  makeSoporteOperadorGet,
  makeSoporteOperadorList,
  makeSoporteOperadorReply,
  makeSoporteReply,
} from "./handlers/soporte.js";
import { makeUsageList, makeUsageSummary } from "./handlers/usage.js";
import {
  makeUserAdd,
  makeAccountOwnerGet,
  makeUserGet,
  makeUserLogin,
  makeUserPasswordChange,
  makeUserResetComplete,
  makeUserResetRequest,
  makeUserSignup,
} from "./handlers/users.js";

/** Wiring only: repositories and handlers bound to their subjects. */
export function billingBindings(deps: {
  db: Kysely<BillingDatabase>;
  bus: Bus;
  pepper: string;
  cursors: PageCursors;
  settings: AccountingSettings;
  /** announces quota thresholds crossed by reservations (evt.billing.cuota.alerta) */
  alertas?: CuotaAlertas;
  /** dashboard users: the login throttle, reset links, e-mail */
  dashboard: {
    throttle: ThrottleSettings;
    resetTtlMs: number;
    dummyHash: string;
    sendMessage: SendMessage;
  };
}): Binding[] {
  const accounts = makeAccountsRepository(deps.db);
  const keys = makeKeysRepository(deps.db);
  const hasher = makeHasher(deps.pepper);
  const { db, settings } = deps;
  const users = makeUsersRepository(db);
  const userDeps = {
    accounts,
    users,
    attempts: makeLoginAttemptsRepository(db, deps.dashboard.throttle),
    resets: makePasswordResetsRepository(db),
    now: settings.now,
    resetTtlMs: deps.dashboard.resetTtlMs,
    dummyHash: deps.dashboard.dummyHash,
    sendMessage: deps.dashboard.sendMessage,
  };
  const soporteDeps = {
    soporte: makeSoporteRepository(db),
    users,
    now: settings.now,
    sendMessage: deps.dashboard.sendMessage,
  };
  return [
    bind(billing.accountCreate, makeAccountCreate(accounts)),
    bind(billing.keyCreate, makeKeyCreate({ accounts, keys, hasher })),
    bind(billing.keyList, makeKeyList({ accounts, keys })),
    bind(billing.keyRevoke, makeKeyRevoke({ keys, bus: deps.bus })),
    bind(billing.keyVerify, makeKeyVerify({ keys, hasher })),
    bind(billing.facturaAdmit, makeFacturaAdmit({ db, settings, alertas: deps.alertas })),
    bind(billing.facturaHold, makeFacturaHold({ db, settings })),
    bind(billing.facturaSettle, makeFacturaSettle({ db })),
    bind(billing.quotaReserve, makeQuotaReserve({ db, settings, alertas: deps.alertas })),
    bind(billing.quotaCommit, makeQuotaCommit({ db })),
    bind(billing.quotaRelease, makeQuotaRelease({ db })),
    bind(billing.planCreate, makePlanCreate(db)),
    bind(billing.planList, makePlanList(db)),
    bind(billing.planAssign, makePlanAssign({ db, settings })),
    bind(billing.accountUsage, makeAccountUsage({ db, settings })),
    bind(billing.usageList, makeUsageList({ db, cursors: deps.cursors })),
    bind(billing.usageSummary, makeUsageSummary({ db, settings })),
    bind(billing.userSignup, makeUserSignup(userDeps)),
    bind(billing.userLogin, makeUserLogin(userDeps)),
    bind(billing.userGet, makeUserGet(userDeps)),
    bind(billing.accountOwnerGet, makeAccountOwnerGet(userDeps)),
    bind(billing.userPasswordChange, makeUserPasswordChange(userDeps)),
    bind(billing.userResetRequest, makeUserResetRequest(userDeps)),
    bind(billing.userResetComplete, makeUserResetComplete(userDeps)),
    bind(billing.userAdd, makeUserAdd(userDeps)),
    bind(billing.soporteCreate, makeSoporteCreate(soporteDeps)),
    bind(billing.soporteList, makeSoporteList(soporteDeps)),
    bind(billing.soporteGet, makeSoporteGet(soporteDeps)),
    bind(billing.soporteReply, makeSoporteReply(soporteDeps)),
    bind(billing.soporteOperadorList, makeSoporteOperadorList(soporteDeps)),
    bind(billing.soporteOperadorGet, makeSoporteOperadorGet(soporteDeps)),
    bind(billing.soporteOperadorReply, makeSoporteOperadorReply(soporteDeps)),
    bind(billing.soporteClose, makeSoporteClose(soporteDeps)),
  ];
}
