import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { invalidField, fail, ok } from "@pasarela/errors";
import { z } from "zod";
import { defineLocalCommand, flag } from "../command.js";

/** Where `npm start`'s SMTP sink keeps messages, relative to the repository root. */
const DEFAULT_DIR = ".data/mail";
const dirFlag = flag(
  z.string().min(1).default(DEFAULT_DIR),
  "la carpeta del buzón local (con npm run, relativa a la raíz del repositorio)",
  "<folder>",
);

/**
 * What the sink (local/smtp-sink) writes beside each `.eml`: the summary of the message it
 * parsed on arrival, so that listing and opening need no MIME parser here.
 */
interface SinkEntry {
  id: string;
  receivedAt: string;
  from: string;
  to: string[];
  subject: string;
  attachments: { filename: string; contentType?: string; size: number }[];
  file: string;
  message?: { from: string[]; replyTo: string[]; to: string[]; cc: string[]; text: string };
}

async function entries(dir: string): Promise<SinkEntry[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const all = await Promise.all(
    names
      .filter((name) => name.endsWith(".json"))
      .map(async (name) => JSON.parse(await readFile(join(dir, name), "utf8")) as SinkEntry),
  );
  return all.sort((a, b) => b.receivedAt.localeCompare(a.receivedAt));
}

/** The local SMTP sink of `npm start`: what the gateway "sent", newest first. */
export const mailCommands = [
  defineLocalCommand({
    resource: "mail",
    verb: "list",
    summary:
      'Lista los e-mails que guardó el buzón local de npm start, el más nuevo primero. Responde {"messages":[{"id","receivedAt","to","subject","attachments"}]}.',
    flags: {
      dir: dirFlag,
      limit: flag(
        z.coerce.number().int().min(1).max(1000).default(20),
        "cuántos mensajes, de 1 a 1000",
        "<n>",
      ),
    },
    run: async (flags) => {
      const all = await entries(flags.dir);
      return ok({
        messages: all.slice(0, flags.limit).map(({ id, receivedAt, to, subject, attachments }) => ({
          id,
          receivedAt,
          to,
          subject,
          attachments: attachments.map(({ filename, size }) => ({ filename, size })),
        })),
      });
    },
  }),
  defineLocalCommand({
    resource: "mail",
    verb: "open",
    summary:
      "Muestra un e-mail del buzón local: from, replyTo, to, cc, subject, text, adjuntos y el archivo .eml.",
    flags: {
      id: flag(z.string().min(1), "el id de mail list, o latest para el más nuevo", "<id>|latest"),
      dir: dirFlag,
    },
    run: async (flags) => {
      const all = await entries(flags.dir);
      const entry = flags.id === "latest" ? all[0] : all.find((e) => e.id === flags.id);
      if (!entry) {
        return fail(
          invalidField(
            "--id",
            flags.id === "latest"
              ? `latest no encuentra mensajes: ${flags.dir} está vacío (todavía no se envió ningún e-mail)`
              : `(${flags.id}) no nombra un mensaje de ${flags.dir}: mail list muestra los que hay`,
          ),
        );
      }
      const message = entry.message ?? { from: [], replyTo: [], to: [], cc: [], text: "" };
      return ok({
        id: entry.id,
        receivedAt: entry.receivedAt,
        from: message.from,
        replyTo: message.replyTo,
        to: message.to,
        cc: message.cc,
        subject: entry.subject,
        text: message.text,
        attachments: entry.attachments.map(({ filename, contentType, size }) => ({
          filename,
          contentType: contentType ?? "",
          size,
        })),
        file: entry.file,
      });
    },
  }),
];
