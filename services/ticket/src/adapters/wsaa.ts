import {
  authorityNow,
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

/** WSAA refused the TRA's times: its clock and this host's disagree. */
const CLOCK_FAULTS = new Set([
  "xml.generationTime.invalid",
  "xml.expirationTime.expired",
  "xml.expirationTime.invalid",
]);

/**
 * The only place WSAA answers get a meaning: faults are classified where WSAA is called. The
 * TRA is dated by the authority's clock (authority-clock.ts), learnt from its answers: a login
 * refused for its times, the first one after the clocks drifted apart, is signed again once
 * with the clock that refusal showed.
 */
export function makeWsaaAdapter(options: {
  urls: Record<Environment, string>;
  timeoutMs: number;
  /** now for `environment`, epoch ms: the authority's clock unless a test sets its own */
  now?: (environment: Environment) => number;
}): WsaaAdapter {
  const now = options.now ?? authorityNow;
  const clients: Partial<Record<Environment, WsaaClient>> = {};
  const clientFor = (environment: Environment) =>
    (clients[environment] ??= makeWsaaClient({
      endpoint: options.urls[environment],
      environment,
      timeoutMs: options.timeoutMs,
    }));
  return {
    async login(credential, service, environment) {
      const loginCms = () =>
        clientFor(environment).loginCms(signTra(buildTra(service, now(environment)), credential));
      let outcome = await loginCms();
      if (
        !outcome.ok &&
        outcome.failure.kind === "fault" &&
        CLOCK_FAULTS.has(outcome.failure.code) &&
        options.now === undefined
      ) {
        outcome = await loginCms();
      }
      if (outcome.ok) return { kind: "ticket", ticket: outcome.ticket };
      return classifyWsaaFailure(outcome.failure, service, environment);
    },
  };
}
