/** The waits after the first failed attempts, in order; after them, every RETRY_EVERY_MS. */
export const RETRY_DELAYS_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3600_000,
  5 * 3600_000,
  10 * 3600_000,
] as const;
export const RETRY_EVERY_MS = 12 * 3600_000;
/** A delivery keeps being tried for at least this long after it was created. */
export const RETRY_FOR_MS = 3 * 24 * 3600_000;
/** Each wait is stretched or shrunk by up to this fraction, so failures do not retry in step. */
export const RETRY_JITTER = 0.1;

/**
 * The wait before the next attempt of a delivery whose `attempts` attempts (1 or more) all
 * failed, `elapsedMs` after it was created; undefined once it has been tried for
 * RETRY_FOR_MS: it failed for good. `scale` shrinks the whole schedule (tests only);
 * `random` in [0, 1) places the jitter.
 */
export function nextRetryDelay(
  attempts: number,
  elapsedMs: number,
  options: { scale?: number; random?: () => number } = {},
): number | undefined {
  const scale = options.scale ?? 1;
  if (attempts < 1) throw new Error("a retry follows at least one attempt");
  if (elapsedMs >= RETRY_FOR_MS * scale) return undefined;
  const base = (RETRY_DELAYS_MS[attempts - 1] ?? RETRY_EVERY_MS) * scale;
  const random = (options.random ?? Math.random)();
  return Math.round(base * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random));
}
