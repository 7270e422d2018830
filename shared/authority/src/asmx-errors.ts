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
import { tokenIssuer } from "./wsaa.js";

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
  /** problems in the request that the caller can fix (4xx) */
  readonly caller: ReadonlySet<number>;
}

/** Who a call was for, and the token it carried (to tell who issued it). */
export interface AsmxErrContext {
  readonly cuit: string;
  readonly environment: Environment;
  readonly ptoVta?: number | undefined;
  /** the TA token sent in `Auth`; without it a hash refusal is never called a mix-up */
  readonly token?: string | undefined;
}

/**
 * ASMX answers to catalogue codes, classified here and nowhere else. The token code comes in
 * several flavours told apart by the text after "ValidacionDeToken:", worded alike by both
 * services: the represented CUIT missing from the token's relations (403), a hash that does not
 * verify, and token problems the gateway can cure with a fresh TA (expired, another service's).
 * Anything not recognised is the authority's side: 502, never a guessed 403.
 *
 * "Error al verificar hash" alone does not say why. The authority answers it for a token signed
 * by the other environment's WSAA (the test/production mix-up), for a token it cannot read at
 * all, and for a sign that does not match a token of its own; only the token itself tells these
 * apart, by the WSAA that issued it (`tokenIssuer`):
 * - issued by the other environment's WSAA: the mix-up, 403 with the product's exact message;
 * - issued by this environment's WSAA: a TA the authority no longer honours (it re-keyed, or
 *   the ticket service has replaced it): one fresh TA, then 502;
 * - not a TA at all, or a source we cannot place: the gateway sent something the authority
 *   cannot read and a retry with the same stored TA would repeat it: 502 at once. So is
 *   "Parametro nulo o vacio" (nothing sent), which no caller can fix.
 */
export function classifyAsmxErr<T>(
  codes: AsmxErrCodes,
  err: AsmxErr,
  context: AsmxErrContext,
): TicketedAttempt<T> {
  const { service } = codes;
  const { cuit, environment, ptoVta, token } = context;
  const done = (error: AppError): TicketedAttempt<T> => ({ kind: "done", result: fail(error) });
  const label = service.toUpperCase();
  const unavailable = (prefix = label) =>
    authorityUnavailable(`${prefix} ${err.code}: ${err.message}`, { authorityCode: err.code });
  const stale = (): TicketedAttempt<T> => ({
    kind: "stale-ticket",
    error: unavailable(`${label} rechazó el ticket de acceso:`),
  });
  const notDelegated = () =>
    done(representadaNotDelegated(cuit, service, environment, err.message));
  if (codes.notDelegated.has(err.code)) return notDelegated();
  if (err.code === codes.token) {
    if (/lista de relaciones/i.test(err.message)) return notDelegated();
    if (/verificar hash/i.test(err.message)) {
      const issuer = token === undefined ? "unknown" : tokenIssuer(token);
      if (issuer === environment) return stale();
      if (issuer === "homologacion" || issuer === "produccion") {
        return done(certificateEnvironmentMismatch(environment, err));
      }
      return done(unavailable());
    }
    if (/validaron las fechas|valido Id Sistema/i.test(err.message)) return stale();
    return done(unavailable());
  }
  if (codes.pointOfSale.has(err.code) && ptoVta !== undefined) {
    return done(pointOfSaleNotEnabled(ptoVta, service, environment, err));
  }
  if (codes.caller.has(err.code)) return done(authorityQueryRefused(service, err));
  return done(unavailable());
}
