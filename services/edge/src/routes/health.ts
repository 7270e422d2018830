import type { Bus } from "@pasarela/bus";
import { healthContract } from "@pasarela/contracts";
import type { FastifyInstance } from "fastify";
import { z } from "zod";

const readySchema = z.object({
  ready: z.boolean(),
  nats: z.boolean(),
  services: z.record(z.string(), z.boolean()),
  /** the edge is stopping: it serves what it is sent while it still listens, but wants no more */
  stopping: z.boolean().optional(),
});

/**
 * `/healthz`: the process is up. `/readyz`: NATS and every service the routes need answer; 503
 * at once, without asking them, once the edge is stopping.
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  bus: Bus,
  services: readonly string[],
  stopping: () => boolean,
): void {
  app.get("/healthz", { schema: { hide: true } }, () => Promise.resolve({ status: "ok" }));
  app.get(
    "/readyz",
    {
      schema: {
        summary: "Disponibilidad de NATS y de cada servicio",
        tags: ["operación"],
        response: { 200: readySchema, 503: readySchema },
      },
    },
    async (_request, reply) => {
      const nats = bus.isConnected();
      if (stopping()) {
        return reply.code(503).send({ ready: false, nats, services: {}, stopping: true });
      }
      const answers = await Promise.all(
        services.map(async (service) => {
          if (!nats) return [service, false] as const;
          const result = await bus.request(healthContract(service), {}, { timeoutMs: 2_000 });
          return [service, result.ok] as const;
        }),
      );
      const body = {
        ready: nats && answers.every(([, up]) => up),
        nats,
        services: Object.fromEntries(answers),
      };
      return reply.code(body.ready ? 200 : 503).send(body);
    },
  );
}
