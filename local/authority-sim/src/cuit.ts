const WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2] as const;

/** CUIT/CUIL check digit (mod 11); a computed 10 means the number is not issued as is. */
export function isValidCuit(value: string | number): boolean {
  const s = String(value);
  if (!/^\d{11}$/.test(s)) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += Number(s[i]) * (WEIGHTS[i] ?? 0);
  const r = 11 - (sum % 11);
  const check = r === 11 ? 0 : r;
  return check !== 10 && check === Number(s[10]);
}
