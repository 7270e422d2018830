/**
 * What a query that reaches the authority may answer besides the bus's own codes: the 403s of
 * the representada, its certificate and its delegations, the caller-side refusals the
 * authority words itself, and the authority's own failures.
 */
export const authorityQueryErrors = [
  "UNSUPPORTED_CBTE_TIPO",
  "REPRESENTADA_NOT_FOUND",
  "NO_ACTIVE_CERTIFICATE",
  "SERVICE_NOT_DELEGATED",
  "CERTIFICATE_ENVIRONMENT_MISMATCH",
  "REPRESENTADA_NOT_DELEGATED",
  "POINT_OF_SALE_NOT_ENABLED",
  "AUTHORITY_QUERY_REFUSED",
  "ACCESS_TICKET_PENDING",
  "AUTHORITY_UNAVAILABLE",
] as const;

/*
 * The time budget of an API call, from the outside in: a slow authority must
 * end as a 502 from the layer that waited on it, before any outer layer stops waiting, so a
 * 503 stays reserved for the gateway's own services not answering. With the defaults
 * (API_TIMEOUT_MS = 65 s, AUTHORITY_TIMEOUT_MS = 30 s), for a query that starts at t:
 *
 *   edge     waits W = min(the subject's wait, API_TIMEOUT_MS) = 65 s; only past t + 65 s does
 *            it answer 503
 *   deadline D = t + W − DEADLINE_SLACK_MS = t + 62 s, carried to every hop as the budget left
 *            (`budget-ms` header); no hop waits for a reply past D + DEADLINE_SLACK_MS
 *   ticket   waits for the login lease and WSAA until D − AUTHORITY_STEP_MARGIN_MS = t + 61 s,
 *            then answers 502 naming WSAA; the login itself runs on, bounded by
 *            AUTHORITY_TIMEOUT_MS, so a TA the authority issues late is still stored
 *   wsfe(x)  gives WSFE(X) min(AUTHORITY_TIMEOUT_MS, D − AUTHORITY_STEP_MARGIN_MS − now), and
 *            answers 502 naming it when it does not answer in that time; with less than
 *            MIN_AUTHORITY_CALL_MS left it answers 502 without calling
 *
 * Before, the edge waited 65 s while a login could wait 30 s for another instance's login,
 * take 30 s itself, and the WSFE call 30 s more: the edge gave up first and answered 503.
 */

/** The longest an API call waits for a query that reaches the authority. */
export const AUTHORITY_QUERY_TIMEOUT_MS = 65_000;
/** Between a call's deadline and its caller giving up: time for the answer to travel back. */
export const DEADLINE_SLACK_MS = 3_000;
/** Every wait on the authority ends this long before the deadline, so its 502 gets out. */
export const AUTHORITY_STEP_MARGIN_MS = 1_000;
/** Less time than this left for a SOAP call: not worth sending. */
export const MIN_AUTHORITY_CALL_MS = 200;
