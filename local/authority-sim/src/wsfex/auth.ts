import { escapeXml } from "../soap/xml.js";
import type { OpContext } from "../soap/service.js";
import { checkToken } from "../token.js";

export const WSFEX_NS = "http://ar.gov.afip.dif.fexv1/";

/** Every result ends in FEXErr and FEXEvents, success included (code 0). */
export function fexErr(code: number, msg: string): string {
  return (
    `<FEXErr><ErrCode>${code}</ErrCode><ErrMsg>${escapeXml(msg)}</ErrMsg></FEXErr>` +
    "<FEXEvents><EventCode>0</EventCode><EventMsg>Ok</EventMsg></FEXEvents>"
  );
}

export const OK_TAIL = fexErr(0, "OK");

const NOT_AUTHORIZED = "Usuario no autorizado a realizar esta operacion. ValidacionDeToken: ";

/** Token checks: 1000 for token problems, 1001 for a CUIT outside the relations. */
export function authenticate(ctx: OpContext): { cuit: string } | { err: string } {
  const auth = ctx.r.el(ctx.body, "Auth");
  if (auth === undefined) {
    return { err: fexErr(1000, `${NOT_AUTHORIZED}Parametro nulo o vacio (token)`) };
  }
  const cuit = String(ctx.r.int(auth, "Cuit") ?? 0);
  if (cuit === "0") return { err: fexErr(1002, "El campo Cuit debe ser mayor a 0.") };
  const check = checkToken({
    token: ctx.r.str(auth, "Token") ?? "",
    sign: ctx.r.str(auth, "Sign") ?? "",
    secret: ctx.world.state.tokenSecret,
    service: "wsfex",
    cuit,
    nowMs: ctx.now,
  });
  if (!check.ok) {
    return {
      err: fexErr(check.kind === "relations" ? 1001 : 1000, `${NOT_AUTHORIZED}${check.message}`),
    };
  }
  return { cuit };
}
