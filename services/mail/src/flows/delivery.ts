import type { Bus, DeliveryInfo, DurableOutcome } from "@pasarela/bus";
import { pdf, ticket, wsfe, type mail } from "@pasarela/contracts";
import type { AppError } from "@pasarela/errors";
import type { SmtpSender } from "../adapters/smtp.js";
import { EMAIL_ERROR_MAX, emailOutcomeEvent, type EmailOutcome } from "../domain/evento.js";
import { comprobanteMessage, messageIdOf } from "../domain/message.js";
import { nextStep, type DeliveryResult, type RetryPolicy } from "../domain/retry.js";

export interface WorkerDeps {
  bus: Pick<Bus, "request" | "publish">;
  smtp: Pick<SmtpSender, "send">;
  from: string;
  policy: RetryPolicy;
  now?: () => number;
  /**
   * How long a decided outcome's report and announcement are retried inside the handler
   * before the job is handed back (SETTLE_FOR_MS): a job handed back may be redelivered to
   * another instance, which cannot tell a sent message from one never sent until wsfe has
   * the report.
   */
  settleForMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

/** See WorkerDeps.settleForMs: well within the job's acknowledgement wait (120 s). */
export const SETTLE_FOR_MS = 30_000;
/** the first pause between two tries of a report or announcement; it doubles up to 2 s */
const SETTLE_PAUSE_MS = 250;

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
  const key = voucherOf(job);
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
    messageId: messageIdOf(job.id, deps.from),
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

/** The voucher's five fields, as wsfe names its e-mail record. */
function voucherOf(job: mail.ComprobanteJob) {
  return {
    environment: job.environment,
    representada: job.representada,
    ptoVta: job.ptoVta,
    cbteTipo: job.cbteTipo,
    cbteNro: job.cbteNro,
  };
}

type Settling = EmailOutcome & { reported: boolean; announced: boolean };

/**
 * The job handler: retries a temporary failure with backoff within the policy's bound, then
 * reports the outcome to wsfe (`sent` or `failed`, with the SMTP text) and announces it
 * (`evt.mail.email.enviado` or `.fallido`, for the account's webhooks).
 *
 * A job is delivered more than once when an instance hands it back or dies with it, and the
 * next delivery may reach another instance: the message is sent once all the same. The report
 * comes first, as it is what every instance can read: a redelivered job whose recipient wsfe
 * already holds as settled is announced and acknowledged without sending; the report and the
 * announcement are retried in the handler (SETTLE_FOR_MS), so a NATS server or a wsfe
 * instance lost for a moment does not hand back a job already sent. Only an instance killed
 * between SMTP's acceptance and wsfe's record can leave a message to be sent again.
 */
export function makeComprobanteWorker(deps: WorkerDeps) {
  const now = deps.now ?? Date.now;
  const settleForMs = deps.settleForMs ?? SETTLE_FOR_MS;
  const pause = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const settling = new Map<string, Settling>();

  /** One try of whatever is left of the report and the announcement. */
  async function step(job: mail.ComprobanteJob, outcome: Settling, info: DeliveryInfo) {
    if (!outcome.reported) {
      const answer = await deps.bus.request(
        wsfe.emailUpdate,
        {
          ...voucherOf(job),
          to: job.to,
          status: outcome.status,
          error: outcome.error === null ? null : outcome.error.slice(0, EMAIL_ERROR_MAX),
        },
        { accountId: job.accountId },
      );
      if (!answer.ok) {
        info.logger.warn({ code: answer.error.code, jobId: job.id }, "e-mail outcome not reported");
        return outcome;
      }
      outcome = { ...outcome, reported: true };
    }
    if (!outcome.announced) {
      const { event, body } = emailOutcomeEvent(job, outcome);
      try {
        await deps.bus.publish(event, body, { accountId: job.accountId });
      } catch (error) {
        info.logger.warn(
          { jobId: job.id, error: error instanceof Error ? error.message : String(error) },
          "e-mail outcome not announced",
        );
        return outcome;
      }
      outcome = { ...outcome, announced: true };
    }
    return outcome;
  }

  async function settle(
    job: mail.ComprobanteJob,
    outcome: Settling,
    info: DeliveryInfo,
  ): Promise<DurableOutcome> {
    const until = now() + settleForMs;
    for (let wait = SETTLE_PAUSE_MS; ; wait = Math.min(wait * 2, 2_000)) {
      outcome = await step(job, outcome, info);
      if (outcome.reported && outcome.announced) break;
      if (now() + wait > until) {
        settling.set(job.id, outcome);
        return { kind: "retry", delayMs: deps.policy.baseMs };
      }
      await pause(wait);
    }
    settling.delete(job.id);
    info.logger.info({ jobId: job.id, status: outcome.status }, "e-mail settled");
    return { kind: "done" };
  }

  /**
   * A redelivered job: what wsfe holds for its recipient. Settled (sent or failed) means an
   * earlier delivery reported it; `undefined` when wsfe cannot say now.
   */
  async function settledBefore(job: mail.ComprobanteJob): Promise<EmailOutcome | null | undefined> {
    const answer = await deps.bus.request(wsfe.emailGet, voucherOf(job), {
      accountId: job.accountId,
    });
    if (!answer.ok) return undefined;
    const record = answer.value.email;
    if (record?.to !== job.to || (record.status !== "sent" && record.status !== "failed")) {
      return null;
    }
    return { status: record.status, error: record.error, at: new Date(now()).toISOString() };
  }

  return async (job: mail.ComprobanteJob, info: DeliveryInfo): Promise<DurableOutcome> => {
    const pending = settling.get(job.id);
    if (pending) return settle(job, pending, info);
    if (info.attempt > 1) {
      const before = await settledBefore(job);
      if (before === undefined) {
        info.logger.warn(
          { jobId: job.id },
          "e-mail redelivered; wsfe cannot say yet if it was sent",
        );
        return { kind: "retry", delayMs: deps.policy.baseMs };
      }
      if (before !== null) {
        info.logger.info({ jobId: job.id, status: before.status }, "e-mail settled before");
        return settle(job, { ...before, reported: true, announced: false }, info);
      }
    }
    const result = await attempt(deps, job);
    const decidedAt = now();
    const next = nextStep(result, info.attempt, Date.parse(job.queuedAt), decidedAt, deps.policy);
    const at = new Date(decidedAt).toISOString();
    switch (next.kind) {
      case "sent":
        return settle(
          job,
          { status: "sent", error: null, at, reported: false, announced: false },
          info,
        );
      case "failed":
        info.logger.warn({ jobId: job.id, error: next.error }, "e-mail failed");
        return settle(
          job,
          { status: "failed", error: next.error, at, reported: false, announced: false },
          info,
        );
      case "retry":
        info.logger.info(
          {
            jobId: job.id,
            attempt: info.attempt,
            delayMs: next.delayMs,
            error: (result as { error?: string }).error,
          },
          "e-mail will be retried",
        );
        return { kind: "retry", delayMs: next.delayMs };
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
      messageId: messageIdOf(job.id, deps.from),
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
