import { readFile } from "node:fs/promises";
import { ticket } from "@pasarela/contracts";
import { fail, invalidField, ok, type Result } from "@pasarela/errors";
import { z } from "zod";
import { defineCommand } from "../command.js";

async function readText(flag: string, path: string): Promise<Result<string>> {
  try {
    return ok(await readFile(path, "utf8"));
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const reason =
      code === "ENOENT" ? "no existe" : error instanceof Error ? error.message : String(error);
    return fail(
      invalidField(`--${flag}`, `apunta a un archivo que no se pudo leer (${path}: ${reason})`),
    );
  }
}

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
