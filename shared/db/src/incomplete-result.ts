import type { QueryResult } from "kysely";

/**
 * The code of a result the driver handed back with rows missing. postgres.js numbers a result's
 * rows with a counter of the connection's, which a query cut short by a terminated backend can
 * leave past zero: the next query on that connection then answers an array whose first entries
 * are empty. That query's answer is not to be trusted, and the connection was just lost, so it
 * counts as a lost connection (a retryable outage), never as rows to read.
 */
export const INCOMPLETE_RESULT = "INCOMPLETE_RESULT";

/** `result` itself when every row is there; throws the lost-connection error otherwise. */
export function completeResult<R>(result: QueryResult<R>): QueryResult<R> {
  const { rows } = result;
  for (let i = 0; i < rows.length; i++) {
    if (rows[i] === undefined || rows[i] === null) {
      throw Object.assign(
        new Error(`the database answered ${rows.length} rows with row ${i} missing`),
        { code: INCOMPLETE_RESULT },
      );
    }
  }
  return result;
}
