/** The p-th percentile of values sorted in ascending order (the nearest rank below); 0 for none. */
export const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length === 0
    ? 0
    : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
