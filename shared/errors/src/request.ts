import type { AppError } from "./app-error.js";
import { catalogue } from "./catalogue.js";

/**
 * Builders for the errors of a request's shape: its HTTP, its body's encoding and numbers, its
 * fields and the values a field accepts.
 */

const list = (values: readonly (string | number)[]): string => values.join(", ");

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

export function invalidJson(problem: string): AppError {
  return {
    code: "INVALID_JSON",
    message: `${catalogue.INVALID_JSON.message}: ${problem}`,
    details: { problem },
  };
}

/** Not valid HTTP; `problem` says what (no Host, Content-Length with Transfer-Encoding…). */
export function malformedRequest(problem: string): AppError {
  return {
    code: "MALFORMED_REQUEST",
    message: `${catalogue.MALFORMED_REQUEST.message}: ${problem}`,
    details: { problem },
  };
}

/** `problem` completes "El campo <field> …", e.g. "es obligatorio". */
export function invalidField(field: string, problem: string): AppError {
  return {
    code: "INVALID_FIELD",
    message: `El campo ${field} ${problem}`,
    details: { field, problem },
  };
}

/**
 * A list's `cursor` that does not continue this list for this account with these filters:
 * foreign, altered, malformed or never issued, all answered alike so none can be told apart.
 */
export function invalidCursor(): AppError {
  return invalidField(
    "cursor",
    "no continúa esta lista: pasá el nextCursor de la página anterior, con los mismos filtros",
  );
}

/**
 * The issuer logo cannot be printed; `problem` completes "el archivo …" (its real type, its
 * size, that it does not decode). The field is always `logo`.
 */
export function logoInvalid(problem: string): AppError {
  return {
    code: "LOGO_INVALID",
    message: `${catalogue.LOGO_INVALID.message}: el archivo ${problem}`,
    details: { field: "logo", problem },
  };
}

export function unsupportedCbteTipo(cbteTipo: unknown, accepted: readonly number[]): AppError {
  return {
    code: "UNSUPPORTED_CBTE_TIPO",
    message: `cbteTipo ${String(cbteTipo)} no soportado. Tipos aceptados: ${list(accepted)}`,
    details: { field: "cbteTipo", accepted },
  };
}

export function unknownTabla(tabla: string, valid: readonly string[]): AppError {
  return {
    code: "UNKNOWN_TABLA",
    message: `Tabla de parámetros "${tabla}" desconocida. Tablas válidas: ${list(valid)}`,
    details: { tabla, valid },
  };
}
