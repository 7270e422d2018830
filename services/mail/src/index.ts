import { consumeDurable, done, ensureJobStream } from "@pasarela/bus";
import { mail, wsfe } from "@pasarela/contracts";
import { serviceModule, startService, type RunningService } from "@pasarela/service";
import type { Logger } from "@pasarela/telemetry";
import { makeSmtpSender } from "./adapters/smtp.js";
import { loadConfig, type MailConfig } from "./config.js";
import { makeComprobanteWorker, makeMensajeWorker } from "./flows/delivery.js";

export { loadConfig, mailConfigSchema as configSchema, type MailConfig } from "./config.js";
export { makeSmtpSender, type OutgoingMail, type SmtpSender } from "./adapters/smtp.js";

/** Nothing for tests to reach into: the mail service is observed through SMTP and wsfe. */
export type MailDeps = object;

/** The durable consumers' names: one each, shared by every instance. */
const JOBS_DURABLE = "mail";
const AUTORIZADO_DURABLE = "mail-emision";
/** one message at a time; a handler that threw is tried again after this */
const ONE_BY_ONE = { maxBatch: 1, retryDelayMs: 5_000 };
/** an e-mail's attempt may wait on SMTP: the server waits this long before redelivering it */
const JOB_ACK_WAIT_MS = 120_000;

/**
 * Starts the mail service: it answers no request subject of its own (only health); it sends
 * the queued e-mails and queues the automatic one of each voucher issued with `email`.
 */
export async function startMail(
  config: MailConfig,
  logger?: Logger,
): Promise<RunningService<MailDeps>> {
  return startService<never, MailDeps>({
    name: "mail",
    settings: config,
    ...(logger ? { logger } : {}),
    start: async ({ bus, logger: serviceLogger }) => {
      const smtp = makeSmtpSender(config.SMTP_URL);
      const policy = {
        retryForMs: config.MAIL_RETRY_FOR_MS,
        baseMs: config.MAIL_RETRY_BASE_MS,
        maxDelayMs: config.MAIL_RETRY_MAX_DELAY_MS,
      };
      await ensureJobStream(bus, mail.comprobanteJob);
      await ensureJobStream(bus, mail.mensajeJob);
      const comprobante = makeComprobanteWorker({ bus, smtp, from: config.MAIL_FROM, policy });
      const jobs = await consumeDurable(bus, [mail.comprobanteJob], {
        ...ONE_BY_ONE,
        durable: JOBS_DURABLE,
        logger: serviceLogger,
        concurrency: config.MAIL_CONCURRENCY,
        ackWaitMs: JOB_ACK_WAIT_MS,
        handle: ([job], info) => comprobante(job!.body, info),
      });
      // password-reset links and support replies, queued by billing
      const mensaje = makeMensajeWorker({ smtp, from: config.MAIL_FROM, policy });
      const mensajes = await consumeDurable(bus, [mail.mensajeJob], {
        ...ONE_BY_ONE,
        durable: JOBS_DURABLE,
        logger: serviceLogger,
        concurrency: config.MAIL_CONCURRENCY,
        ackWaitMs: JOB_ACK_WAIT_MS,
        handle: ([job], info) => mensaje(job!.body, info),
      });
      // issuance with `email`: wsfe recorded the recipient `pending`; queue its send once
      const emision = await consumeDurable(bus, [wsfe.comprobanteAutorizado], {
        ...ONE_BY_ONE,
        durable: AUTORIZADO_DURABLE,
        logger: serviceLogger,
        concurrency: 4,
        ackWaitMs: 60_000,
        handle: async ([delivered], info) => {
          const event = delivered!.body;
          const queued = await bus.request(
            wsfe.emailSend,
            {
              environment: event.environment,
              representada: event.representada,
              ptoVta: event.ptoVta,
              cbteTipo: event.cbteTipo,
              cbteNro: event.cbteNro,
              emision: true,
            },
            { accountId: event.accountId, requestId: event.requestId },
          );
          if (queued.ok || queued.error.code !== "SERVICE_UNAVAILABLE") return done;
          info.logger.warn({ eventId: event.id }, "automatic e-mail not queued yet");
          return { kind: "retry", delayMs: 5_000 };
        },
      });
      return {
        bindings: [],
        stop: async () => {
          await Promise.all([jobs.stop(), mensajes.stop(), emision.stop()]);
          smtp.close();
        },
      };
    },
  });
}

/** mail as a process runs it, alone or beside the other services: see `@pasarela/server`. */
export const mailService = serviceModule("mail", {
  config: loadConfig,
  start: startMail,
  announce(config, logger) {
    // the URL may hold credentials: only where it points is logged
    const smtp = new URL(config.SMTP_URL);
    logger.info({ smtp: `${smtp.protocol}//${smtp.host}`, from: config.MAIL_FROM }, "SMTP relay");
  },
});
