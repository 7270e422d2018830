import type { SoapFailure } from "./soap-failure.js";

/**
 * Whether a request that failed this way can still reach the authority: not when an answer
 * (any answer) came back, nor once the full authority timeout passed since it left; a
 * connection that broke, or a wait cut short, proves nothing.
 */
export function cannotLandAnyMore(failure: SoapFailure, authorityTimeoutMs: number): boolean {
  switch (failure.kind) {
    case "http":
    case "unreadable":
    case "fault":
    case "too-large":
      return true;
    case "timeout":
      return failure.timeoutMs >= authorityTimeoutMs;
    case "network":
    case "tls":
      return false;
  }
}
