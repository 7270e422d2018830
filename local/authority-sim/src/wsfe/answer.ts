import type { OpContext } from "../soap/service.js";
import { escapeXml, listXml } from "../soap/xml.js";
import type { Pair } from "../state.js";
import { checkToken } from "../token.js";

/** What every WSFE operation of the simulator shares: the Auth check and the error lists. */

/** The most vouchers one FECAESolicitar may carry, as FECompTotXRequest answers. */
export const MAX_REG_X_REQ = 250;

export const MSG_AUTH = "Campo Auth no fue ingresado o esta mal formado.";
export const MSG_NOT_FOUND =
  "No existen datos en nuestros registros para los parametros ingresados.";

export const pairsXml = (wrapper: string, tag: string, pairs: readonly Pair[]): string =>
  listXml(
    wrapper,
    pairs,
    (p) => `<${tag}><Code>${p.code}</Code><Msg>${escapeXml(p.msg)}</Msg></${tag}>`,
  );
export const errorsXml = (errs: readonly Pair[]): string => pairsXml("Errors", "Err", errs);
export const obsXml = (obs: readonly Pair[]): string => pairsXml("Observaciones", "Obs", obs);

/** The results that answer errors with zeroed fields rather than errors alone. */
export const ultimoErrors = (errs: readonly Pair[]): string =>
  `<PtoVta>0</PtoVta><CbteTipo>0</CbteTipo><CbteNro>0</CbteNro>${errorsXml(errs)}`;
export const totXRequestErrors = (errs: readonly Pair[]): string =>
  `<RegXReq>0</RegXReq>${errorsXml(errs)}`;

/** Auth check: Err 500 for a missing Auth, then the token checks (600). */
export function authenticate(ctx: OpContext): { cuit: string } | Pair {
  const auth = ctx.r.el(ctx.body, "Auth");
  if (auth === undefined) return { code: 500, msg: MSG_AUTH };
  const cuit = String(ctx.r.int(auth, "Cuit") ?? 0);
  const check = checkToken({
    token: ctx.r.str(auth, "Token") ?? "",
    sign: ctx.r.str(auth, "Sign") ?? "",
    secret: ctx.world.state.tokenSecret,
    service: "wsfe",
    cuit,
    nowMs: ctx.now,
  });
  if (!check.ok) return { code: 600, msg: `ValidacionDeToken: ${check.message}` };
  return { cuit };
}

export function isPair(v: { cuit: string } | Pair): v is Pair {
  return "code" in v;
}

export function seriesKey(cuit: string, ptoVta: number, tipo: number): string {
  return `${cuit}|${ptoVta}|${tipo}`;
}
