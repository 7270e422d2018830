import type { Bus, DeliveryInfo, DurableOutcome } from "@pasarela/bus";
import { pdf, ticket, wsfe, type mail } from "@pasarela/contracts";
import type { AppError } from "@pasarela/errors";
import type { SmtpSender } from "../adapters/smtp.js";
import { EMAIL_ERROR_MAX, emailOutcomeEvent, type EmailOutcome } from "../domain/evento.js";
import { comprobanteMessage } from "../domain/message.js";
import { nextStep, type DeliveryResult, type RetryPolicy } from "../domain/retry.js";

export interface WorkerDeps {
  bus: Pick<Bus, "request" | "publish">;
  smtp: Pick<SmtpSender, "send">;
  from: string;
  policy: RetryPolicy;
  now?: () => number;
}

/** A gateway service that did not answer, or a generator that failed: worth another try. */
const transientCodes = new Set<string>([
  "SERVICE_UNAVAILABLE",
  "INTERNAL",
  "PDF_RENDER_FAILED",
  "PDF_STORAGE_FAILED",
]);

function fromAppError(error: AppError): DeliveryResult {
  return transientCodes.has(error.code)
    ? { kind: "temporary", error: `${error.code}: ${error.message}` }
    : { kind: "permanent", error: `${error.code}: ${error.message}` };
}

/**
 * One voucher e-mail: the printed original and a shareable link from the pdf service, the
 * representada's name as sender, then SMTP. Returns how the attempt ended.
 */
async function attempt(deps: WorkerDeps, job: mail.ComprobanteJob): Promise<DeliveryResult> {
  const options = { accountId: job.accountId };
  const key = {
    environment: job.environment,
    representada: job.representada,
    ptoVta: job.ptoVta,
    cbteTipo: job.cbteTipo,
    cbteNro: job.cbteNro,
  };
  const [document, link, perfil] = await Promise.all([
    deps.bus.request(pdf.comprobanteRender, { ...key, copia: "original" }, options),
    deps.bus.request(pdf.linkCreate, key, options),
    deps.bus.request(
      ticket.perfilGet,
      { cuit: job.representada, environment: job.environment },
      options,
    ),
  ]);
  if (!document.ok) return fromAppError(document.error);
  if (!link.ok) return fromAppError(link.error);
  // without a profile (or its razón social) the sender is named by the CUIT
  const emisor = (perfil.ok && perfil.value.perfil?.razonSocial) || `CUIT ${job.representada}`;
  const replyTo = (perfil.ok && perfil.value.perfil?.email) || undefined;
  const message = comprobanteMessage(job, emisor, link.value);
  return deps.smtp.send({
    from: { name: emisor, address: deps.from },
    replyTo,
    to: job.to,
    cc: job.cc,
    ...message,
    attachment: {
      filename: document.value.filename,
      content: Buffer.from(document.value.pdf, "base64"),
    },
  });
}

/**
 * The job handler: retries a temporary failure with backoff within the policy's bound, then
 * announces the outcome (`evt.mail.email.enviado` or `.fallido`, for the account's webhooks)
 * and reports `sent` or `failed` (with the SMTP text) to wsfe. An announcement or report that
 * does not get through is retried alone: the message is not sent twice for it.
 */
export function makeComprobanteWorker(deps: WorkerDeps) {
  const now = deps.now ?? Date.now;
  const reported = new Map<string, EmailOutcome & { announced: boolean }>();

  async function report(
    job: mail.ComprobanteJob,
    outcome: EmailOutcome & { announced: boolean },
    info: DeliveryInfo,
  ): Promise<DurableOutcome> {
    if (!outcome.announced) {
      const { event, body } = emailOutcomeEvent(job, outcome);
      try {
        await deps.bus.publish(event, body, { accountId: job.accountId });
      } catch (error) {
        reported.set(job.id, outcome);
        info.logger.warn(
          { jobId: job.id, error: error instanceof Error ? error.message : String(error) },
          "e-mail outcome not announced",
        );
        return { kind: "retry", delayMs: deps.policy.baseMs };
      }
      outcome = { ...outcome, announced: true };
    }
    const answer = await deps.bus.request(
      wsfe.emailUpdate,
      {
        environment: job.environment,
        representada: job.representada,
        ptoVta: job.ptoVta,
        cbteTipo: job.cbteTipo,
        cbteNro: job.cbteNro,
        to: job.to,
        status: outcome.status,
        error: outcome.error === null ? null : outcome.error.slice(0, EMAIL_ERROR_MAX),
      },
      { accountId: job.accountId },
    );
    if (!answer.ok) {
      reported.set(job.id, outcome);
      info.logger.warn({ code: answer.error.code, jobId: job.id }, "e-mail outcome not reported");
      return { kind: "retry", delayMs: deps.policy.baseMs };
    }
    reported.delete(job.id);
    info.logger.info({ jobId: job.id, status: outcome.status }, "e-mail settled");
    return { kind: "done" };
  }

  return async (job: mail.ComprobanteJob, info: DeliveryInfo): Promise<DurableOutcome> => {
    const pending = reported.get(job.id);
    if (pending) return report(job, pending, info);
    const result = await attempt(deps, job);
    const decidedAt = now();
    const step = nextStep(result, info.attempt, Date.parse(job.queuedAt), decidedAt, deps.policy);
    const at = new Date(decidedAt).toISOString();
    switch (step.kind) {
      case "sent":
        return report(job, { status: "sent", error: null, at, announced: false }, info);
      case "failed":
        info.logger.warn({ jobId: job.id, error: step.error }, "e-mail failed");
        return report(job, { status: "failed", error: step.error, at, announced: false }, info);
      case "retry":
        info.logger.info(
          {
            jobId: job.id,
            attempt: info.attempt,
            delayMs: step.delayMs,
            error: (result as { error?: string }).error,
          },
          "e-mail will be retried",
        );
        return { kind: "retry", delayMs: step.delayMs };
    }
  };
}

/** The display name of the gateway's own messages (password resets, support replies). */
export const GATEWAY_SENDER_NAME = "Pasarela de facturación";

/**
 * `job.mail.mensaje`: a plain message through the same SMTP path and retry rules as the
 * vouchers. Nobody waits for a report: the outcome is logged (never the text, which may carry
 * a password-reset link).
 */
export function makeMensajeWorker(deps: Omit<WorkerDeps, "bus">) {
  const now = deps.now ?? Date.now;
  return async (job: mail.MensajeJob, info: DeliveryInfo): Promise<DurableOutcome> => {
    const result = await deps.smtp.send({
      from: { name: GATEWAY_SENDER_NAME, address: deps.from },
      to: job.to,
      cc: [],
      subject: job.subject,
      text: job.text,
      html: job.html,
    });
    const step = nextStep(result, info.attempt, Date.parse(job.queuedAt), now(), deps.policy);
    switch (step.kind) {
      case "sent":
        info.logger.info({ jobId: job.id }, "message sent");
        return { kind: "done" };
      case "failed":
        info.logger.warn({ jobId: job.id, error: step.error }, "message failed");
        return { kind: "done" };
      case "retry":
        info.logger.info(
          {
            jobId: job.id,
            attempt: info.attempt,
            delayMs: step.delayMs,
            error: (result as { error?: string }).error,
          },
          "message will be retried",
        );
        return { kind: "retry", delayMs: step.delayMs };
    }
  };
}
