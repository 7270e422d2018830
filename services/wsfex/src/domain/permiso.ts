/**
 * `A` means valid. The authority has been recorded answering `OK` for a valid
 * permit; `A` itself is also taken as valid. Any other state passes through untouched.
 */
export function permisoStatus(authorityStatus: string): string {
  const status = authorityStatus.trim();
  return status.toUpperCase() === "OK" || status === "A" ? "A" : status;
}
