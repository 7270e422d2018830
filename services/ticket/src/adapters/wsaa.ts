import {
  classifyWsaaFailure,
  makeWsaaClient,
  type LoginTicket,
  type WsaaClient,
} from "@pasarela/authority";
import type { AppError, Environment, WebService } from "@pasarela/errors";
import { buildTra, signTra } from "../domain/tra.js";

export type LoginResult =
  | { readonly kind: "ticket"; readonly ticket: LoginTicket }
  | { readonly kind: "already-authenticated"; readonly message: string }
  | { readonly kind: "error"; readonly error: AppError };

export interface WsaaAdapter {
  /** Signs a TRA for `service` with the credential and calls loginCms in `environment`. */
  login: (
    credential: { keyPem: string; certPem: string },
    service: WebService,
    environment: Environment,
  ) => Promise<LoginResult>;
}

/** The only place WSAA answers get a meaning: faults are classified where WSAA is called. */
export function makeWsaaAdapter(options: {
  urls: Record<Environment, string>;
  timeoutMs: number;
  now?: () => number;
}): WsaaAdapter {
  const now = options.now ?? Date.now;
  const clients: Partial<Record<Environment, WsaaClient>> = {};
  const clientFor = (environment: Environment) =>
    (clients[environment] ??= makeWsaaClient({
      endpoint: options.urls[environment],
      environment,
      timeoutMs: options.timeoutMs,
    }));
  return {
    async login(credential, service, environment) {
      const cms = signTra(buildTra(service, now()), credential);
      const outcome = await clientFor(environment).loginCms(cms);
      if (outcome.ok) return { kind: "ticket", ticket: outcome.ticket };
      return classifyWsaaFailure(outcome.failure, service, environment);
    },
  };
}
