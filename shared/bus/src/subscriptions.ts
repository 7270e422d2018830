import type { Span } from "@opentelemetry/api";
import type { MsgHdrs, Subscription } from "@nats-io/nats-core";
import type { EventContract, EventOf } from "@pasarela/contracts";
import { decoder, handlerContext, type BusCore, type HandlerContext } from "./wire.js";

/**
 * Plain publish/subscribe: every instance receives the event over a core subscription (no
 * queue group, nothing stored), for what each process keeps in memory, such as caches.
 */
export function listen<E extends EventContract>(
  core: BusCore,
  consumed: <T>(
    subject: string,
    headers: readonly (MsgHdrs | undefined)[],
    work: (span: Span) => Promise<T>,
  ) => Promise<T>,
  event: E,
  handler: (body: EventOf<E>, ctx: HandlerContext) => Promise<void> | void,
): Subscription {
  return core.connection.subscribe(core.subjectOf(event.subject), {
    callback: (error, msg) => {
      if (error) {
        core.logger.error({ err: error, subject: event.subject }, "event subscription failed");
        return;
      }
      const ctx = handlerContext(msg, event.subject, core.logger);
      // a failed handler is logged here and marks the span; nothing is rethrown
      void consumed(event.subject, [msg.headers], async () => {
        const parsed = event.schema.safeParse(JSON.parse(decoder.decode(msg.data)));
        if (!parsed.success) {
          ctx.logger.error({ issues: parsed.error.issues }, "event breaks its schema");
          return;
        }
        await handler(parsed.data as EventOf<E>, ctx);
      }).catch((failure: unknown) => {
        ctx.logger.error({ err: failure }, "event handler failed");
      });
    },
  });
}
