import { invalidField, type AppError } from "@pasarela/errors";

const CUIT_WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2] as const;

/** Document types whose number is a CUIT-shaped id with a check digit (authority-ws.md §7). */
const WITH_CHECK_DIGIT: ReadonlySet<number> = new Set([80, 86]);

/**
 * authority-ws.md §7: 11 digits whose last is 11 − (Σ dᵢ·wᵢ mod 11), with 11 → 0; a result of
 * 10 is never issued as such, so it is invalid.
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
 * The rule between the two fields, checked on the stored result of a create or a partial
 * update (a PATCH may change only one of them).
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
