import { invalidField, type AppError } from "@pasarela/errors";

const CUIT_WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2] as const;

/**
 * A CUIT: 11 digits whose last is 11 − (Σ dᵢ·wᵢ mod 11), with 11 → 0; a result of
 * 10 is never issued as such, so it is invalid. The one check every service uses.
 */
export function isValidCuit(digits: string): boolean {
  if (!/^\d{11}$/.test(digits)) return false;
  const values = [...digits].map(Number);
  const sum = CUIT_WEIGHTS.reduce((acc, weight, i) => acc + weight * values[i]!, 0);
  const check = 11 - (sum % 11);
  const expected = check === 11 ? 0 : check;
  return expected !== 10 && expected === values[10];
}

/**
 * The OpenAPI document's `format` of a CUIT or CUIL: 11 digits, the first not 0, with a valid
 * check digit (`isValidCuit`). JSON Schema cannot state a check digit; the format names it.
 */
export const CUIT_FORMAT = "cuit";

/** Document types whose number is a CUIT-shaped id with a check digit. */
const WITH_CHECK_DIGIT: ReadonlySet<number> = new Set([80, 86]);

/** `documentoProblem` as the OpenAPI document states it: with docTipo 80 or 86, a CUIT. */
export const documentoDocument = {
  if: { properties: { docTipo: { enum: [...WITH_CHECK_DIGIT] } }, required: ["docTipo"] },
  then: { properties: { docNro: { format: CUIT_FORMAT } } },
};

/**
 * The rule between `docTipo` and `docNro` (a CUIT or CUIL carries a valid check digit), for a
 * stored customer and for a voucher's receiver alike: the 400 naming `docNro`, or undefined.
 */
export function documentoProblem(docTipo: number, docNro: string): AppError | undefined {
  if (WITH_CHECK_DIGIT.has(docTipo) && !isValidCuit(docNro)) {
    return invalidField(
      "docNro",
      `no es una ${docTipo === 80 ? "CUIT" : "CUIL"} válida: deben ser 11 dígitos con dígito verificador correcto`,
    );
  }
  return undefined;
}
