/**
 * The authority's clock, as the `Date` header of its answers shows it, per environment. WSAA
 * refuses a login whose times are not within its own clock (generationTime ahead of it, or
 * expirationTime behind it), and a TA's times are the authority's: a host whose clock is off
 * must judge both by the authority's clock, not its own.
 *
 * `Date` has a resolution of one second, and the answer took some time to come back: an
 * offset within RESOLUTION_MS is noise and read as none.
 */
const RESOLUTION_MS = 2_000;

const offsets = new Map<string, number>();

/**
 * Takes the `Date` of an answer of the authority in `environment`, asked at `sentAt` and
 * received at `receivedAt` (this host's epoch ms). An answer without a readable Date is ignored.
 */
export function observeAuthorityDate(
  environment: string,
  date: string | undefined,
  _sentAt: number,
  receivedAt: number,
): void {
  if (date === undefined) return;
  const at = Date.parse(date);
  if (Number.isNaN(at)) return;
  // a server dates its answer as it starts sending it: the authority's now was within
  // [at, at + 1 s) just before this host received it, however long it took to answer
  const offset = at + 500 - receivedAt;
  offsets.set(environment, Math.abs(offset) < RESOLUTION_MS ? 0 : Math.round(offset));
}

/** How far the authority's clock in `environment` is ahead of this host's (ms; 0 unknown). */
export function authorityOffsetMs(environment: string): number {
  return offsets.get(environment) ?? 0;
}

/** Now by the authority's clock in `environment`, as epoch ms. */
export function authorityNow(environment: string): number {
  return Date.now() + authorityOffsetMs(environment);
}
