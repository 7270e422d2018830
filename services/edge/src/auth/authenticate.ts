import type { Bus } from "@pasarela/bus";
import { billing } from "@pasarela/contracts";
import { appError, readOnlyKey, type WriteGroup } from "@pasarela/errors";
import type { FastifyRequest } from "fastify";
import { EdgeError } from "../http/edge-error.js";
import type { KeyCache, Principal } from "./key-cache.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** set on write routes: a read_only key gets the read-only message that names this group */
    writeGroup?: WriteGroup;
  }
  interface FastifyRequest {
    principal?: Principal;
  }
}

const BEARER = "Bearer ";

/** The secret after `Bearer `, or undefined for a missing header or any other scheme. */
function bearerSecret(header: string | undefined): string | undefined {
  if (!header?.startsWith(BEARER)) return undefined;
  const secret = header.slice(BEARER.length).trim();
  return secret.length > 0 && secret.length <= 512 ? secret : undefined;
}

/**
 * onRequest hook of every /api route: authenticates before the body is even read, then
 * refuses a read_only key on a write route before anything else is contacted.
 */
export function makeAuthenticate(bus: Pick<Bus, "request">, cache: KeyCache) {
  return async (request: FastifyRequest): Promise<void> => {
    const secret = bearerSecret(request.headers.authorization);
    if (!secret) throw new EdgeError(appError("UNAUTHORIZED"));
    const principal = await cache.principal(secret, () =>
      bus.request(billing.keyVerify, { secret }, { requestId: request.id }),
    );
    if (!principal.ok) throw new EdgeError(principal.error);
    request.principal = principal.value;
    const group = request.routeOptions.config.writeGroup;
    if (group && principal.value.scope === "read_only") throw new EdgeError(readOnlyKey(group));
  };
}
