const CUIT_WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2] as const;

/**
 * authority-ws.md §7: 11 digits whose last is 11 − (Σ dᵢ·wᵢ mod 11), with 11 → 0; a result of
 * 10 is never issued as such, so it is invalid. The one check both sides of a contract can use.
 */
export function isValidCuit(digits: string): boolean {
  if (!/^\d{11}$/.test(digits)) return false;
  const values = [...digits].map(Number);
  const sum = CUIT_WEIGHTS.reduce((acc, weight, i) => acc + weight * values[i]!, 0);
  const check = 11 - (sum % 11);
  const expected = check === 11 ? 0 : check;
  return expected !== 10 && expected === values[10];
}
