import { billing } from "@pasarela/contracts";
import { z } from "zod";
import type { RouteModule } from "./route-module.js";

/** `GET /api/cuenta`: who this key is. Lets a caller check a key without side effects. */
export const cuentaRoutes: RouteModule = {
  name: "cuenta",
  services: ["billing"],
  plugin: (app) => {
    app.get(
      "/cuenta",
      {
        schema: {
          summary: "La cuenta y el alcance de la API key presentada",
          tags: ["cuenta"],
          response: {
            200: z.object({
              accountId: z.string(),
              keyId: z.string(),
              scope: billing.keyScopeSchema,
            }),
          },
        },
      },
      (request) => {
        const { accountId, keyId, scope } = request.principal!;
        return Promise.resolve({ accountId, keyId, scope });
      },
    );
    return Promise.resolve();
  },
};
