import { authorityUnavailable, type AppError } from "@pasarela/errors";
import type { SoapFailure } from "./soap-failure.js";

/**
 * The one wording of a call that produced no business answer, for every service (WSAA, WSFE,
 * WSFEX): the authority's failure (502), worded so the caller can tell a timeout
 * from an HTTP error, an unreachable host, an unreadable answer or a fault nobody classified.
 */
export function describeTransportFailure(service: string, failure: SoapFailure): AppError {
  switch (failure.kind) {
    case "timeout":
      return authorityUnavailable(`${service} no respondió en ${failure.timeoutMs} ms`);
    case "http":
      return authorityUnavailable(`${service} respondió HTTP ${failure.status}`, {
        httpStatus: failure.status,
      });
    case "network":
      return authorityUnavailable(`${service} inalcanzable: ${failure.message}`);
    case "tls":
      return authorityUnavailable(
        `el certificado TLS de ${service} no es de confianza o no es válido: ${failure.message}`,
      );
    case "too-large":
      return authorityUnavailable(
        `la respuesta de ${service} supera el límite de ${failure.limitBytes} bytes y no se leyó`,
      );
    case "unreadable":
      return authorityUnavailable(`respuesta de ${service} ilegible: ${failure.message}`);
    case "fault":
      return authorityUnavailable(
        `${service} respondió SOAP Fault ${failure.code}${failure.message ? `: ${failure.message}` : ""}`,
        { authorityCode: failure.code },
      );
  }
}
