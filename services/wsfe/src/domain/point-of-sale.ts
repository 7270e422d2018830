import { fail, invalidField, ok, type Result } from "@pasarela/errors";

/**
 * The requested point of sale wins; otherwise the one configured for the representada in that
 * environment; with neither the caller must send `ptoVta`.
 */
export function resolvePtoVta(
  requested: number | undefined,
  configured: number | null,
): Result<number> {
  if (requested !== undefined) return ok(requested);
  if (configured !== null) return ok(configured);
  return fail(
    invalidField(
      "ptoVta",
      "es obligatorio: la representada no tiene un punto de venta configurado en ese entorno",
    ),
  );
}
