import nodemailer from "nodemailer";
import type { DeliveryResult } from "../domain/retry.js";

export interface OutgoingMail {
  /** the Message-ID header, angle brackets included (messageIdOf) */
  readonly messageId: string;
  readonly from: { readonly name: string; readonly address: string };
  readonly replyTo?: string | undefined;
  readonly to: string;
  readonly cc: readonly string[];
  readonly subject: string;
  readonly text: string;
  readonly html?: string | undefined;
  readonly attachment?: { readonly filename: string; readonly content: Buffer } | undefined;
}

export interface SmtpSender {
  send(mail: OutgoingMail): Promise<DeliveryResult>;
  close(): void;
}

/** Failures of the connection itself: the server may well answer later. */
const TEMPORARY_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ECONNECTION",
  "ESOCKET",
  "EDNS",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
]);

interface SmtpFailure {
  code?: unknown;
  responseCode?: unknown;
  response?: unknown;
  message?: unknown;
}

/** RFC 5321: 4xx is transient, 5xx permanent; no answer at all is transient. */
export function classifySmtpFailure(error: unknown): DeliveryResult {
  const failure = (error ?? {}) as SmtpFailure;
  const text =
    typeof failure.response === "string" && failure.response !== ""
      ? failure.response
      : typeof failure.message === "string"
        ? failure.message
        : String(error);
  const responseCode = typeof failure.responseCode === "number" ? failure.responseCode : undefined;
  if (responseCode !== undefined) {
    if (responseCode >= 400 && responseCode < 500) return { kind: "temporary", error: text };
    if (responseCode >= 500) return { kind: "permanent", error: text };
  }
  if (typeof failure.code === "string" && TEMPORARY_CODES.has(failure.code)) {
    return { kind: "temporary", error: text };
  }
  // an address or message nodemailer refuses to send (EENVELOPE, EMESSAGE) never improves
  return { kind: "permanent", error: text };
}

/** nodemailer over `SMTP_URL`: one connection per message, bounded waits. */
export function makeSmtpSender(smtpUrl: string): SmtpSender {
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    async send(mail) {
      try {
        await transport.sendMail({
          messageId: mail.messageId,
          from: { name: mail.from.name, address: mail.from.address },
          ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
          to: mail.to,
          ...(mail.cc.length > 0 ? { cc: [...mail.cc] } : {}),
          subject: mail.subject,
          text: mail.text,
          ...(mail.html !== undefined ? { html: mail.html } : {}),
          ...(mail.attachment
            ? {
                attachments: [
                  {
                    filename: mail.attachment.filename,
                    content: mail.attachment.content,
                    contentType: "application/pdf",
                  },
                ],
              }
            : {}),
        });
        return { kind: "sent" };
      } catch (error) {
        return classifySmtpFailure(error);
      }
    },
    close: () => transport.close(),
  };
}
