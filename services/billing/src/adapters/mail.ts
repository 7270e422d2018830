import { randomUUID } from "node:crypto";
import type { Bus } from "@pasarela/bus";
import { mail } from "@pasarela/contracts";
import type { SendMessage } from "../domain/messages.js";

/** Queues `job.mail.mensaje`; resolves once JetStream stored it. */
export function makeSendMessage(bus: Bus): SendMessage {
  return (message) =>
    bus.publish(mail.mensajeJob, {
      id: randomUUID(),
      ...message,
      // the mail service's retry window counts from here on its own clock
      queuedAt: new Date().toISOString(),
    });
}
