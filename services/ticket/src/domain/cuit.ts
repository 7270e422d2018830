const WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2] as const;

/**
 * authority-ws.md §7: 11 digits whose last is 11 − (Σ dᵢ·wᵢ mod 11), with 11 → 0; a result of
 * 10 is never issued as such, so it is invalid.
 */
export function isValidCuit(cuit: string): boolean {
  if (!/^\d{11}$/.test(cuit)) return false;
  const digits = [...cuit].map(Number);
  const sum = WEIGHTS.reduce((acc, weight, i) => acc + weight * digits[i]!, 0);
  const check = 11 - (sum % 11);
  const expected = check === 11 ? 0 : check;
  return expected !== 10 && expected === digits[10];
}
