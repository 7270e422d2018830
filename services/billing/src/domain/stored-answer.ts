import { billing } from "@pasarela/contracts";

/** The 422s the rejection cap counts, issuance rejections: the authority's and the totals rules. */
export const REJECTION_CODES: ReadonlySet<string> = new Set([
  "AUTHORITY_REJECTED",
  "TOTALS_INVALID",
]);

/** An answer that counts as an issuance rejection for the rejection cap. */
export const isRejection = (answer: billing.FacturaAnswer | undefined): boolean =>
  answer?.kind === "error" && REJECTION_CODES.has(answer.error.code);

const LIFTED = ["resultado", "observaciones", "errores"] as const;

/**
 * A record written as an HTTP status and body (before answers were stored as such): a 200
 * body is the voucher; an error body is `{error, code, …lifted rejection fields, details}`.
 */
function fromHttp(status: number, body: unknown): billing.FacturaAnswer | undefined {
  if (body === null || typeof body !== "object") return undefined;
  const fields = body as Record<string, unknown>;
  if (status === 200) return { kind: "authorized", factura: fields };
  const { error, code } = fields;
  if (typeof error !== "string" || typeof code !== "string") return undefined;
  const details: Record<string, unknown> = {};
  for (const name of LIFTED) if (name in fields) details[name] = fields[name];
  if (fields.details !== null && typeof fields.details === "object") {
    Object.assign(details, fields.details);
  }
  return {
    kind: "error",
    error: { code, message: error, ...(Object.keys(details).length > 0 ? { details } : {}) },
  };
}

/** The answer a complete record replays, or undefined when its text cannot be read back. */
export function storedAnswer(
  status: number | null,
  text: string,
): billing.FacturaAnswer | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (status !== null) return fromHttp(status, body);
  const answer = billing.facturaAnswerSchema.safeParse(body);
  return answer.success ? answer.data : undefined;
}
