import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeSmtpSender } from "@pasarela/mail";
import { startMailSink, type MailSink } from "@pasarela/smtp-sink";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../src/index.js";

describe("the local SMTP sink and `mail list` / `mail open`", () => {
  let dir: string;
  let sink: MailSink;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "pasarela-mail-"));
    sink = await startMailSink({ directory: dir, port: 0 });
  });
  afterAll(async () => {
    await sink?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps what the gateway sends and lets the developer list and open it, without a stack", async () => {
    const sender = makeSmtpSender(`smtp://127.0.0.1:${sink.port}`);
    const sent = await sender.send({
      messageId: "<9b1c2d3e-0000-4000-8000-000000000001@pasarela.local>",
      from: { name: "Mi Comercio SRL", address: "comprobantes@pasarela.local" },
      replyTo: "ventas@micomercio.test",
      to: "cliente@example.com",
      cc: ["contador@example.com"],
      subject: "Factura C 0003-00000007 de Mi Comercio SRL",
      text: "Adjuntamos el comprobante en PDF.",
      html: "<p>Adjuntamos el comprobante en PDF.</p>",
      attachment: {
        filename: "20111111112_011_00003-00000007.pdf",
        content: Buffer.from("%PDF-1.4 x"),
      },
    });
    sender.close();
    expect(sent).toEqual({ kind: "sent" });

    const list = await runCli(["mail", "list", "--dir", dir]);
    expect(list.exitCode, list.stderr).toBe(0);
    const { messages } = JSON.parse(list.stdout ?? "{}") as {
      messages: { id: string; to: string[]; subject: string; attachments: unknown[] }[];
    };
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      to: ["cliente@example.com", "contador@example.com"],
      subject: "Factura C 0003-00000007 de Mi Comercio SRL",
      attachments: [{ filename: "20111111112_011_00003-00000007.pdf", size: 10 }],
    });

    const opened = await runCli(["mail", "open", "--id", "latest", "--dir", dir]);
    expect(opened.exitCode, opened.stderr).toBe(0);
    expect(JSON.parse(opened.stdout ?? "{}")).toMatchObject({
      id: messages[0]!.id,
      from: ["Mi Comercio SRL <comprobantes@pasarela.local>"],
      replyTo: ["ventas@micomercio.test"],
      cc: ["contador@example.com"],
      text: "Adjuntamos el comprobante en PDF.",
    });

    const missing = await runCli(["mail", "open", "--id", "nope", "--dir", dir]);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain("nope");
  });

  it("takes a server that refuses the connection as a temporary failure", async () => {
    const gone = await startMailSink({ directory: dir, port: 0 });
    await gone.stop();
    const sender = makeSmtpSender(`smtp://127.0.0.1:${gone.port}`);
    const result = await sender.send({
      messageId: "<9b1c2d3e-0000-4000-8000-000000000002@example.com>",
      from: { name: "x", address: "a@example.com" },
      to: "b@example.com",
      cc: [],
      subject: "s",
      text: "t",
      html: "<p>t</p>",
      attachment: { filename: "f.pdf", content: Buffer.from("%PDF") },
    });
    sender.close();
    expect(result.kind).toBe("temporary");
  });
});
