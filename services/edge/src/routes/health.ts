import type { Bus } from "@pasarela/bus";
import { healthContract } from "@pasarela/contracts";
import type { FastifyInstance } from "fastify";
import { z } from "zod";

const readySchema = z.object({
  ready: z.boolean(),
  nats: z.boolean(),
  services: z.record(z.string(), z.boolean()),
});

/** `/healthz`: the process is up. `/readyz`: NATS and every service the routes need answer. */
export function registerHealthRoutes(
  app: FastifyInstance,
  bus: Bus,
  services: readonly string[],
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
