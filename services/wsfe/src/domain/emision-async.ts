/**
 * The waits between an asynchronous issuance's attempts while the authority fails: short at
 * first (a blip is over in seconds), growing to `maxMs`, each within ±20% so that issuances
 * queued together do not all come back at once. `intentos` is the attempts made so far.
 */
const WAITS_MS = [2_000, 5_000, 10_000, 20_000, 30_000, 60_000, 120_000, 300_000];

export function retryDelayMs(intentos: number, maxMs: number, random: number): number {
  const base = Math.min(WAITS_MS[Math.max(0, intentos - 1)] ?? maxMs, maxMs);
  const jitter = 0.8 + 0.4 * Math.min(Math.max(random, 0), 1);
  return Math.max(1, Math.round(base * jitter));
}
