import { ticket } from "@pasarela/contracts";
import { ok } from "@pasarela/errors";
import { z } from "zod";
import { defineCommand } from "../command.js";
import { readFlagText as readText } from "../files.js";

export const certificateCommands = [
  defineCommand({
    resource: "certificate",
    verb: "upload",
    usage: "certificate upload --representada <id> --cert <file.pem> [--key <file.key>]",
    flags: z
      .object({ representada: z.string(), cert: z.string(), key: z.string().optional() })
      .strict(),
    run: async (bus, flags) => {
      const certificate = await readText("cert", flags.cert);
      if (!certificate.ok) return certificate;
      const privateKey = flags.key === undefined ? undefined : await readText("key", flags.key);
      if (privateKey && !privateKey.ok) return privateKey;
      const uploaded = await bus.request(ticket.certificateCreate, {
        representadaId: flags.representada,
        certificate: certificate.value,
        ...(privateKey ? { privateKey: privateKey.value } : {}),
      });
      if (!uploaded.ok) return uploaded;
      const { representadaId, status, notAfter, warning } = uploaded.value;
      return ok({
        representadaId,
        status,
        notAfter,
        ...(warning ? { warning: warning.message } : {}),
      });
    },
  }),
];
