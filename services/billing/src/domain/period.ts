/**
 * Billing periods are anchored on the account's start day: a monthly plan of an
 * account opened on the 31st runs 31 Jan → 28 Feb → 31 Mar…, each start clamped to the last
 * day of a shorter month. Everything in UTC.
 */
export interface Period {
  start: Date;
  end: Date;
}

function addMonths(anchor: Date, months: number): Date {
  const year = anchor.getUTCFullYear();
  const month = anchor.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      year,
      month,
      Math.min(anchor.getUTCDate(), lastDay),
      anchor.getUTCHours(),
      anchor.getUTCMinutes(),
      anchor.getUTCSeconds(),
      anchor.getUTCMilliseconds(),
    ),
  );
}

/** The period of `lengthMonths` months, counted from `anchor`, that holds `now`. */
export function periodAt(anchor: Date, lengthMonths: number, now: Date): Period {
  const elapsed =
    (now.getUTCFullYear() - anchor.getUTCFullYear()) * 12 +
    now.getUTCMonth() -
    anchor.getUTCMonth();
  // negative before the anchor: a clock behind the account's creation still finds its period
  let n = Math.floor(elapsed / lengthMonths);
  while (addMonths(anchor, n * lengthMonths) > now) n -= 1;
  while (addMonths(anchor, (n + 1) * lengthMonths) <= now) n += 1;
  return {
    start: addMonths(anchor, n * lengthMonths),
    end: addMonths(anchor, (n + 1) * lengthMonths),
  };
}

/** One rolling hour, the rejection cap's window. */
export const REJECTION_WINDOW_MS = 3_600_000;

/**
 * When the next issuance is accepted under a cap of `cap` rejections per rolling hour, given
 * the window's rejection times (oldest first): once enough of them have left the window that
 * fewer than `cap` remain. Undefined when the cap is not reached.
 */
export function capClearsAt(windowTimes: readonly Date[], cap: number): Date | undefined {
  if (windowTimes.length < cap) return undefined;
  const leaving = windowTimes[windowTimes.length - cap];
  return leaving && new Date(leaving.getTime() + REJECTION_WINDOW_MS);
}
