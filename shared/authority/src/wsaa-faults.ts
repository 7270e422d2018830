import {
  certificateEnvironmentMismatch,
  serviceNotDelegated,
  type AppError,
  type Environment,
  type WebService,
} from "@pasarela/errors";
import type { SoapFailure } from "./soap-failure.js";
import { describeTransportFailure } from "./transport-failure.js";

/**
 * What a failed loginCms means to the gateway. `already-authenticated` is not an error yet:
 * only the ticket service knows whether it holds the TA the authority is talking about.
 */
export type WsaaFailureClass =
  | { readonly kind: "already-authenticated"; readonly message: string }
  | { readonly kind: "error"; readonly error: AppError };

const NOT_AUTHORIZED_CODES = new Set(["coe.notAuthorized", "LoginFault", "wsaa.LoginFault"]);

/**
 * WSAA faults, classified here and nowhere else: not delegated → 403 naming service and
 * environment; a certificate of the other CA → 403 mix-up; everything else, including faults we
 * do not recognise, → 502, because a 403 must never be a guess.
 */
export function classifyWsaaFailure(
  failure: SoapFailure,
  service: WebService,
  environment: Environment,
): WsaaFailureClass {
  if (failure.kind === "fault") {
    const { code, message } = failure;
    if (code === "coe.alreadyAuthenticated") return { kind: "already-authenticated", message };
    if (NOT_AUTHORIZED_CODES.has(code) || /no autorizado a acceder al servicio/i.test(message)) {
      return {
        kind: "error",
        error: serviceNotDelegated(service, environment, message || undefined),
      };
    }
    if (code === "cms.cert.untrusted") {
      return {
        kind: "error",
        error: certificateEnvironmentMismatch(environment, { code, message }),
      };
    }
  }
  return { kind: "error", error: describeTransportFailure("WSAA", failure) };
}
