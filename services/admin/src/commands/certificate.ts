import { ticket } from "@pasarela/contracts";
import { ok } from "@pasarela/errors";
import { z } from "zod";
import { defineCommand, flag } from "../command.js";
import { readFlagText as readText } from "../files.js";

export const certificateCommands = [
  defineCommand({
    resource: "certificate",
    verb: "upload",
    summary:
      'Guarda el certificado de una representada. Responde {"representadaId","status","notAfter"}; un CSR, un certificado de otra clave o uno vencido se rechazan.',
    flags: {
      representada: flag(z.string(), "el representadaId de representada create", "<id>"),
      cert: flag(
        z.string(),
        "archivo PEM con el certificado que emitió la autoridad",
        "<file.pem>",
      ),
      key: flag(
        z.string().optional(),
        "archivo PEM con la clave privada, para un certificado generado fuera de la pasarela",
        "<file.key>",
      ),
    },
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
