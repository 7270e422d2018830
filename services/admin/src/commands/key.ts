import { billing } from "@pasarela/contracts";
import { ok } from "@pasarela/errors";
import { z } from "zod";
import { defineCommand } from "../command.js";

export const keyCommands = [
  defineCommand({
    resource: "key",
    verb: "create",
    usage: "key create --account <accountId> --scope read_only|read_write",
    flags: z.object({ account: z.string(), scope: billing.keyScopeSchema }).strict(),
    run: async (bus, flags) => {
      const created = await bus.request(billing.keyCreate, {
        accountId: flags.account,
        scope: flags.scope,
      });
      if (!created.ok) return created;
      const { keyId, prefix, secret } = created.value;
      return ok({ keyId, prefix, secret });
    },
  }),
  defineCommand({
    resource: "key",
    verb: "revoke",
    usage: "key revoke --key <keyId>",
    flags: z.object({ key: z.string() }).strict(),
    run: async (bus, flags) => {
      const revoked = await bus.request(billing.keyRevoke, { keyId: flags.key });
      if (!revoked.ok) return revoked;
      return ok({ keyId: revoked.value.keyId, revoked: true });
    },
  }),
  defineCommand({
    resource: "key",
    verb: "list",
    usage: "key list --account <accountId>",
    flags: z.object({ account: z.string() }).strict(),
    run: (bus, flags) => bus.request(billing.keyList, { accountId: flags.account }),
  }),
];
