import type { CertificateRow } from "../db/repositories/certificates.js";

/** An active certificate inside its validity: the only kind that may sign a TRA. */
export function isCertificateUsable(
  row: Pick<CertificateRow, "status" | "certificate_pem" | "not_before" | "not_after">,
  now: Date,
): boolean {
  return (
    row.status === "active" &&
    row.certificate_pem !== null &&
    (row.not_before === null || row.not_before <= now) &&
    (row.not_after === null || row.not_after > now)
  );
}
