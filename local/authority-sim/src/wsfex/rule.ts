import type { EnvState } from "../state.js";
import type { FexRequest } from "./request.js";

/** What FEXAuthorize judges a request against besides the request itself. */
export interface FexCheck {
  readonly req: FexRequest;
  readonly cuit: string;
  readonly env: EnvState;
  /** the simulated day, yyyymmdd */
  readonly today: string;
  /** the last number authorized on the request's series (0 for none) */
  readonly last: number;
}

/** One rule: the code and text FEXErr carries when `fails` holds. */
export interface Rule {
  readonly code: number;
  readonly msg: string;
  fails(c: FexCheck): boolean;
}

export const rule = (code: number, msg: string, fails: (c: FexCheck) => boolean): Rule => ({
  code,
  msg,
  fails,
});

export const known = <T>(values: readonly T[]): ReadonlySet<T> => new Set(values);
export const VOUCHER_TYPES = known([19, 20, 21]);

export const fechaCbte = (c: FexCheck): string =>
  c.req.fechaCbte === "" ? c.today : c.req.fechaCbte;
export const isFactura = (c: FexCheck): boolean => c.req.cbteTipo === 19;
export const between = (n: number | undefined, min: number, max: number): boolean =>
  n !== undefined && n >= min && n <= max;
export const repeats = (values: readonly unknown[]): boolean =>
  new Set(values).size !== values.length;

/** The quote FEXGetPARAM_Ctz publishes for the request's currency today (1 for pesos). */
export const officialQuote = (env: EnvState, monedaId: string): number | undefined =>
  monedaId === "PES" ? 1 : env.cotizaciones[monedaId];
