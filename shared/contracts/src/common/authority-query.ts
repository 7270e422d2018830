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

/** Room for a first WSAA login (AUTHORITY_TIMEOUT_MS) plus the business call itself. */
export const AUTHORITY_QUERY_TIMEOUT_MS = 65_000;
