import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { simpleParser, type AddressObject } from "mailparser";
import { SMTPServer } from "smtp-server";

/**
 * What the sink writes beside each `.eml`: enough to list and open messages without parsing
 * them again (`npm run admin -- mail list|open` reads only this).
 */
export interface SinkEntry {
  readonly id: string;
  readonly receivedAt: string;
  /** the envelope's sender and recipients */
  readonly from: string;
  readonly to: string[];
  readonly subject: string;
  readonly attachments: { filename: string; contentType: string; size: number }[];
  readonly file: string;
  /** the message's own headers and text part */
  readonly message: {
    readonly from: string[];
    readonly replyTo: string[];
    readonly to: string[];
    readonly cc: string[];
    readonly text: string;
  };
}

export interface SinkOptions {
  /** where messages are kept: `<id>.eml` and `<id>.json` */
  directory: string;
  port: number;
  host?: string;
}

export interface MailSink {
  readonly port: number;
  stop(): Promise<void>;
}

const MAX_MESSAGE_BYTES = 25 * 1024 * 1024;

const addresses = (value: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(value) ? value : value ? [value] : []).flatMap((a) =>
    a.value.map((v) => (v.name ? `${v.name} <${v.address ?? ""}>` : (v.address ?? ""))),
  );

/**
 * A local SMTP server for development that accepts every message (no authentication, no
 * relaying anywhere) and keeps it under `directory`: `npm run admin -- mail list` reads them.
 */
export async function startMailSink(options: SinkOptions): Promise<MailSink> {
  mkdirSync(options.directory, { recursive: true, mode: 0o700 });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    size: MAX_MESSAGE_BYTES,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks);
        const id = `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomUUID().slice(0, 8)}`;
        const file = join(options.directory, `${id}.eml`);
        simpleParser(raw)
          .then((parsed) => {
            writeFileSync(file, raw, { mode: 0o600 });
            const entry: SinkEntry = {
              id,
              receivedAt: new Date().toISOString(),
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
              to: session.envelope.rcptTo.map((r) => r.address),
              subject: parsed.subject ?? "",
              attachments: parsed.attachments.map((a) => ({
                filename: a.filename ?? "",
                contentType: a.contentType,
                size: a.size,
              })),
              file,
              message: {
                from: addresses(parsed.from),
                replyTo: addresses(parsed.replyTo),
                to: addresses(parsed.to),
                cc: addresses(parsed.cc),
                text: parsed.text ?? "",
              },
            };
            writeFileSync(join(options.directory, `${id}.json`), JSON.stringify(entry, null, 2), {
              mode: 0o600,
            });
            callback();
          })
          .catch((error: unknown) => callback(error as Error));
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  return {
    port,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
