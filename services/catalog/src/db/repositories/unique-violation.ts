/** postgres.js raises SQLSTATE 23505 with the index name; other failures stay bugs. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, constraint_name: name } = error as { code?: unknown; constraint_name?: unknown };
  return code === "23505" && name === constraint;
}
