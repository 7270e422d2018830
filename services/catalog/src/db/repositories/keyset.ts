/**
 * A list's filters as the repository takes them: the contract's, with the opaque cursor
 * already decoded into the id of the last record of the previous page.
 */
export type KeysetQuery<Filter> = Omit<Filter, "cursor"> & {
  accountId: string;
  after?: string | undefined;
};

export interface KeysetPage<T> {
  items: T[];
  /** the id of the record to continue after; null on the last page */
  continueAfter: string | null;
}

/**
 * Cuts rows read in `seq` order with `limit + 1`: the extra row is never answered, it only
 * tells that another page follows. `seq` orders rows and never leaves the database: the
 * cursor carries the last row's id.
 */
export function keysetPage<Row extends { id: string }, T>(
  rows: readonly Row[],
  limit: number,
  toItem: (row: Row) => T,
): KeysetPage<T> {
  const page = rows.slice(0, limit);
  return {
    items: page.map((row) => toItem(row)),
    continueAfter: rows.length > limit ? page[page.length - 1]!.id : null,
  };
}
