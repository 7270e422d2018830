import { billing } from "@pasarela/contracts";
import { ok } from "@pasarela/errors";
import { z } from "zod";
import { defineCommand, flag } from "../command.js";

const account = flag(z.string(), "la cuenta", "<accountId>");

export const keyCommands = [
  defineCommand({
    resource: "key",
    verb: "create",
    summary:
      'Crea una API key. Responde {"keyId","prefix","secret"}; el secreto (lo que va después de "Bearer ") se muestra esta única vez.',
    flags: {
      account,
      scope: flag(
        billing.keyScopeSchema,
        "read_only solo lee; read_write además emite y modifica datos",
      ),
    },
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
    summary:
      'Revoca una API key: deja de funcionar en el pedido siguiente. Responde {"keyId","revoked":true}.',
    flags: { key: flag(z.string(), "el keyId de key create o key list", "<keyId>") },
    run: async (bus, flags) => {
      const revoked = await bus.request(billing.keyRevoke, { keyId: flags.key });
      if (!revoked.ok) return revoked;
      return ok({ keyId: revoked.value.keyId, revoked: true });
    },
  }),
  defineCommand({
    resource: "key",
    verb: "list",
    summary:
      'Lista las API keys de una cuenta, nunca sus secretos. Responde {"keys":[{"keyId","prefix","scope","createdAt","revokedAt","lastUsedAt"}]}.',
    flags: { account },
    run: (bus, flags) => bus.request(billing.keyList, { accountId: flags.account }),
  }),
];
