import { mail, type EventOf } from "@pasarela/contracts";

/** How a voucher e-mail ended, as wsfe records it and as the account's webhooks announce it. */
export interface EmailOutcome {
  readonly status: "sent" | "failed";
  /** the SMTP text (or the gateway's reason) of a failure */
  readonly error: string | null;
  /** when the outcome was decided: kept while its report is retried */
  readonly at: string;
}

/** The longest failure text stored and announced. */
export const EMAIL_ERROR_MAX = 2000;

/** The relay's reply code at the start of its text (`550 5.1.1 …`), when there is one. */
export function smtpCodeOf(error: string): number | null {
  const match = /^([2-5]\d\d)(?:[ -]|$)/.exec(error.trim());
  return match ? Number(match[1]) : null;
}

export type EmailOutcomeEvent =
  | { readonly event: typeof mail.emailEnviado; readonly body: EventOf<typeof mail.emailEnviado> }
  | { readonly event: typeof mail.emailFallido; readonly body: EventOf<typeof mail.emailFallido> };

/** The bus event of a job's outcome: one id per job and outcome, whatever redelivers the job. */
export function emailOutcomeEvent(
  job: mail.ComprobanteJob,
  outcome: EmailOutcome,
): EmailOutcomeEvent {
  const common = {
    version: 1 as const,
    jobId: job.id,
    accountId: job.accountId,
    environment: job.environment,
    representada: job.representada,
    ptoVta: job.ptoVta,
    cbteTipo: job.cbteTipo,
    cbteNro: job.cbteNro,
    to: job.to,
    cc: job.cc,
    occurredAt: outcome.at,
  };
  if (outcome.status === "sent") {
    return {
      event: mail.emailEnviado,
      body: { id: mail.emailEventId(job.id, "enviado"), ...common },
    };
  }
  const error = (outcome.error ?? "").slice(0, EMAIL_ERROR_MAX);
  return {
    event: mail.emailFallido,
    body: {
      id: mail.emailEventId(job.id, "fallido"),
      ...common,
      error,
      smtpCode: smtpCodeOf(error),
    },
  };
}
