import { ensureJobStream, type Bus } from "@pasarela/bus";
import { billing, mail } from "@pasarela/contracts";
import type { Logger } from "@pasarela/telemetry";
import type { DisabledEndpoint, EndpointsRepository } from "../db/repositories/endpoints.js";
import { avisoDesactivacion, avisoJobId } from "../domain/aviso.js";

/** How often pending e-mails are looked for when nothing woke the sender. */
export const AVISOS_POLL_MS = 30_000;

export interface AvisosDeps {
  readonly endpoints: EndpointsRepository;
  readonly bus: Bus;
  readonly logger: Logger;
  readonly pollMs?: number;
}

export interface AvisosSender {
  /** Looks for pending e-mails now (an endpoint was just disabled). */
  wake(this: void): void;
  stop(): Promise<void>;
}

/**
 * Tells the owner of each account whose endpoint the service disabled, once per disabling:
 * the endpoint's pending mark is cleared in the transaction that queued the e-mail
 * (`job.mail.mensaje`), so a failure or a crash leaves it to be tried again, and the job's id
 * is derived from the disabling, so the queue drops an e-mail queued again after a crash.
 */
export async function startAvisos(deps: AvisosDeps): Promise<AvisosSender> {
  await ensureJobStream(deps.bus, mail.mensajeJob);
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  async function queue(endpoint: DisabledEndpoint, logger: Logger): Promise<void> {
    const owner = await deps.bus.request(billing.accountOwnerGet, {
      accountId: endpoint.accountId,
    });
    if (!owner.ok) {
      if (owner.error.code !== "USER_NOT_FOUND") throw new Error(owner.error.message);
      logger.warn("webhook disabled: the account has no owner to tell by e-mail");
      return;
    }
    const message = avisoDesactivacion({
      webhookId: endpoint.id,
      url: endpoint.url,
      descripcion: endpoint.descripcion,
      fallandoDesde: endpoint.fallandoDesde,
      desactivadoAt: endpoint.desactivadoAt,
      motivo: endpoint.motivo,
      destinatario: owner.value.name,
      cuenta: owner.value.accountName,
    });
    await deps.bus.publish(mail.mensajeJob, {
      id: avisoJobId(endpoint.id, endpoint.desactivadoAt),
      to: owner.value.email,
      ...message,
      queuedAt: new Date().toISOString(),
    });
    logger.info({ userId: owner.value.userId }, "webhook disabled: owner told by e-mail");
  }

  async function avisar(endpoint: DisabledEndpoint): Promise<void> {
    const logger = deps.logger.child({ webhookId: endpoint.id, accountId: endpoint.accountId });
    try {
      await deps.endpoints.withAviso(endpoint.id, endpoint.desactivadoAt, () =>
        queue(endpoint, logger),
      );
    } catch (error) {
      logger.warn({ err: error }, "webhook disabled: e-mail not queued, to be tried again");
    }
  }

  async function sweep(): Promise<void> {
    do {
      again = false;
      try {
        for (const endpoint of await deps.endpoints.avisosPendientes(20)) {
          if (stopped) return;
          await avisar(endpoint);
        }
      } catch (error) {
        deps.logger.warn({ err: error }, "pending webhook e-mails not read: to be tried again");
      }
    } while (again && !stopped);
  }

  function wake(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = sweep().finally(() => {
      running = undefined;
    });
  }

  const poll = setInterval(wake, deps.pollMs ?? AVISOS_POLL_MS);
  poll.unref();
  wake();

  return {
    wake,
    async stop() {
      stopped = true;
      clearInterval(poll);
      await running;
    },
  };
}
