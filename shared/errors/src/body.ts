import type { AppError } from "./app-error.js";
import { catalogue } from "./catalogue.js";

/** Builders for the errors of a request body's encoding and numbers, as the edge reads it. */

/** Shows at most `max` characters of caller text inside a message. */
const shortened = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max)}…` : text;

/**
 * A JSON number literal whose exact decimal value differs from the double it reads as
 * (`1e-400` reads as 0, `1.000000000000000000001` as 1, `1e400` as no number at all): taking
 * the double would change the amount without telling. Up to 15 significant digits always read
 * exactly; amounts may also be sent as decimal text where the field admits it.
 */
export function inexactNumber(field: string, literal: string): AppError {
  const shown = shortened(literal, 40);
  return {
    code: "INEXACT_NUMBER",
    message: `El campo ${field} tiene un número (${shown}) que no se puede leer sin redondearlo: enviá hasta 15 dígitos significativos, o el valor como texto decimal ("1.5") donde el campo lo admita`,
    details: { field, literal: shown },
  };
}

/** 415: a body declared in another charset; `charset` is the Content-Type's parameter. */
export function unsupportedCharset(charset: string): AppError {
  const shown = shortened(charset, 40);
  return {
    code: "UNSUPPORTED_CHARSET",
    message: `${catalogue.UNSUPPORTED_CHARSET.message}: Content-Type declara charset=${shown}; enviá el JSON en UTF-8 (charset=utf-8, o sin charset)`,
    details: { charset: shown },
  };
}
