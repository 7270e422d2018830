import { hash } from "node:crypto";
import type { billing } from "@pasarela/contracts";
import { appError, fail, ok, type Result } from "@pasarela/errors";

type KeyScope = billing.KeyScope;

export interface Principal {
  keyId: string;
  accountId: string;
  scope: KeyScope;
}

/** What happened while one verification waited for billing's answer. */
interface InFlight {
  /** keys whose revocation arrived meanwhile */
  readonly revoked: Set<string>;
  /** the cache was cleared meanwhile (events may have been missed) */
  cleared: boolean;
}

/**
 * Verified keys, so a request costs no round trip to billing in the steady state. Entries are
 * keyed by a digest of the secret (the secret itself is never held), dropped at once when
 * billing announces a revocation, and in any case after `ttlMs`.
 *
 * Billing's answer may have been computed before a revocation whose event reaches the edge
 * first. Every verification in flight therefore records the revocations that arrive while it
 * waits: an answer for a key revoked meanwhile is refused and never cached, whatever the
 * timing. After a clear (reconnection: events may have been lost) an answer still in flight
 * authenticates its own request but is not cached.
 */
export function makeKeyCache(ttlMs: number) {
  const entries = new Map<string, { principal: Principal; expiresAt: number }>();
  const inFlight = new Set<InFlight>();
  // the one-shot hash: no Hash object per request
  const digest = (secret: string) => hash("sha256", secret, "base64");

  function cached(secret: string): Principal | undefined {
    const key = digest(secret);
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      entries.delete(key);
      return undefined;
    }
    return entry.principal;
  }

  return {
    /** The principal of `secret`: from the cache, or from `verify` (billing) and then cached. */
    async principal(
      secret: string,
      verify: () => Promise<Result<Principal>>,
    ): Promise<Result<Principal>> {
      const hit = cached(secret);
      if (hit) return ok(hit);
      const watch: InFlight = { revoked: new Set(), cleared: false };
      inFlight.add(watch);
      let verified: Result<Principal>;
      try {
        verified = await verify();
      } finally {
        inFlight.delete(watch);
      }
      if (!verified.ok) return verified;
      if (watch.revoked.has(verified.value.keyId)) return fail(appError("UNAUTHORIZED"));
      if (!watch.cleared && ttlMs > 0) {
        entries.set(digest(secret), { principal: verified.value, expiresAt: Date.now() + ttlMs });
      }
      return verified;
    },
    revoke(keyId: string): void {
      for (const [key, entry] of entries) if (entry.principal.keyId === keyId) entries.delete(key);
      for (const watch of inFlight) watch.revoked.add(keyId);
    },
    clear(): void {
      entries.clear();
      for (const watch of inFlight) watch.cleared = true;
    },
  };
}

export type KeyCache = ReturnType<typeof makeKeyCache>;
