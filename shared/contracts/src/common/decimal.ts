import { z } from "zod";

type JsonSchema = Record<string, unknown>;

// Messages complete "El campo <campo> …" (the edge and the bus prefix the field's path).
const required =
  (otherwise: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined ? "es obligatorio" : otherwise;

/** How an exact decimal may be written: its digits, and whether zero is refused. */
export interface DecimalDigits {
  readonly integerDigits: number;
  readonly fractionDigits: number;
  readonly positive?: boolean;
}

/**
 * An exact decimal as JSON number or decimal text. Leading zeros of the integer part and
 * trailing zeros of the fraction do not count against the digits, as the value is read.
 */
export function decimalDocument(rule: DecimalDigits): JsonSchema {
  const nonZero = rule.positive === true ? "(?!0*(?:\\.0*)?$)" : "";
  return {
    anyOf: [
      {
        type: "number",
        ...(rule.positive === true ? { exclusiveMinimum: 0 } : { minimum: 0 }),
        exclusiveMaximum: 10 ** rule.integerDigits,
      },
      {
        type: "string",
        pattern: `^${nonZero}0*\\d{1,${rule.integerDigits}}(?:\\.\\d{1,${rule.fractionDigits}}0*)?$`,
      },
    ],
  };
}

/**
 * A non-negative decimal as canonical text ("007.50" → "7.5", "2.000" → "2"), or undefined
 * when the value is not one. A JSON number becomes the shortest text that reads back as the
 * same double, which is the decimal the caller wrote for up to 15 significant digits; numbers
 * JSON can only print with an exponent (1e21, 1e-7) are refused rather than guessed.
 */
export function canonicalDecimal(value: number | string): string | undefined {
  const text = typeof value === "number" ? (Number.isFinite(value) ? String(value) : "") : value;
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return undefined;
  const integer = (match[1] ?? "0").replace(/^0+(?=\d)/, "");
  const fraction = (match[2] ?? "").replace(/0+$/, "");
  return fraction ? `${integer}.${fraction}` : integer;
}

export interface DecimalRule {
  /** digits before the point, leading zeros aside */
  readonly integerDigits: number;
  /** significant digits after the point, trailing zeros aside */
  readonly fractionDigits: number;
  /** zero is refused */
  readonly positive?: boolean;
  readonly description: string;
  readonly example: string;
}

/**
 * An exact decimal: a JSON number or a decimal string, normalised to canonical decimal text so
 * no binary floating point touches it again and equal amounts compare equal (idempotency
 * fingerprints). Parsing the canonical text again gives the same text, so the edge and wsfe
 * can both parse the same body.
 */
export function decimalSchema(rule: DecimalRule) {
  const problem =
    `debe ser un número decimal ${rule.positive ? "mayor que 0" : "no negativo"}, como número JSON o texto ` +
    `(p. ej. ${rule.example} o "${rule.example}"), con hasta ${rule.integerDigits} dígitos enteros y ${rule.fractionDigits} decimales`;
  return z
    .union([z.number(), z.string()], { error: required(problem) })
    .transform((value, ctx) => {
      const text = canonicalDecimal(value);
      const [integer = "", fraction = ""] = text?.split(".") ?? [];
      if (
        text === undefined ||
        integer.length > rule.integerDigits ||
        fraction.length > rule.fractionDigits ||
        (rule.positive === true && /^0(\.0*)?$/.test(text))
      ) {
        ctx.addIssue({ code: "custom", message: problem, input: value });
        return z.NEVER;
      }
      return text;
    })
    .meta({ description: rule.description, examples: [rule.example], ...decimalDocument(rule) });
}
