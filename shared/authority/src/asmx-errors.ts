import type { Environment } from "@pasarela/contracts";
import {
  authorityQueryRefused,
  authorityUnavailable,
  certificateEnvironmentMismatch,
  fail,
  pointOfSaleNotEnabled,
  representadaNotDelegated,
  type AppError,
} from "@pasarela/errors";
import type { TicketedAttempt } from "./ticketed-call.js";

/** An error an ASMX service reported inside its answer (WSFEv1 `Errors/Err`, WSFEXv1 `FEXErr`). */
export interface AsmxErr {
  readonly code: number;
  readonly message: string;
}

/** What sets one ASMX service's error codes apart; how they are read is common to both. */
export interface AsmxErrCodes {
  readonly service: "wsfe" | "wsfex";
  /** the code under which the service reports token problems, told apart by their text */
  readonly token: number;
  /** codes that mean the represented CUIT is outside the token's relations, whatever the text */
  readonly notDelegated: ReadonlySet<number>;
  /** point of sale not enabled for web services */
  readonly pointOfSale: ReadonlySet<number>;
  /** problems in the request that the caller can fix (spec §7.1) */
  readonly caller: ReadonlySet<number>;
}

/**
 * The classification of spec §7.2 for ASMX answers (ARCHITECTURE §3). The token code comes in
 * several flavours told apart by the text after "ValidacionDeToken:", worded alike by both
 * services: the represented CUIT missing from the token's relations (403), a token signed by
 * the other environment's WSAA (403 mix-up), and token problems the gateway can cure with a
 * fresh TA (expired, another service's). Anything not recognised is the authority's side:
 * 502, never a guessed 403.
 */
export function classifyAsmxErr<T>(
  codes: AsmxErrCodes,
  err: AsmxErr,
  context: { cuit: string; environment: Environment; ptoVta?: number | undefined },
): TicketedAttempt<T> {
  const { service } = codes;
  const { cuit, environment, ptoVta } = context;
  const done = (error: AppError): TicketedAttempt<T> => ({ kind: "done", result: fail(error) });
  const label = service.toUpperCase();
  const unavailable = (prefix = label) =>
    authorityUnavailable(`${prefix} ${err.code}: ${err.message}`, { authorityCode: err.code });
  const notDelegated = () =>
    done(representadaNotDelegated(cuit, service, environment, err.message));
  if (codes.notDelegated.has(err.code)) return notDelegated();
  if (err.code === codes.token) {
    if (/lista de relaciones/i.test(err.message)) return notDelegated();
    if (/verificar hash/i.test(err.message)) {
      return done(certificateEnvironmentMismatch(environment, err.message));
    }
    if (/validaron las fechas|valido Id Sistema/i.test(err.message)) {
      return { kind: "stale-ticket", error: unavailable(`${label} rechazó el ticket de acceso:`) };
    }
    return done(unavailable());
  }
  if (codes.pointOfSale.has(err.code) && ptoVta !== undefined) {
    return done(pointOfSaleNotEnabled(ptoVta, service, environment, err));
  }
  if (codes.caller.has(err.code)) return done(authorityQueryRefused(service, err));
  return done(unavailable());
}
