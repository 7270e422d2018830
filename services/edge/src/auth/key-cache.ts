import { createHash } from "node:crypto";
import type { billing } from "@pasarela/contracts";

type KeyScope = billing.KeyScope;

export interface Principal {
  keyId: string;
  accountId: string;
  scope: KeyScope;
}

/**
 * Verified keys, so a request costs no round trip to billing in the steady state. Entries are
 * keyed by a digest of the secret (the secret itself is never held), dropped at once when
 * billing announces a revocation, and in any case after `ttlMs`.
 */
export function makeKeyCache(ttlMs: number) {
  const entries = new Map<string, { principal: Principal; expiresAt: number }>();
  const digest = (secret: string) => createHash("sha256").update(secret).digest("base64");
  return {
    get(secret: string): Principal | undefined {
      const key = digest(secret);
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt <= Date.now()) {
        entries.delete(key);
        return undefined;
      }
      return entry.principal;
    },
    set(secret: string, principal: Principal): void {
      if (ttlMs > 0) entries.set(digest(secret), { principal, expiresAt: Date.now() + ttlMs });
    },
    revoke(keyId: string): void {
      for (const [key, entry] of entries) if (entry.principal.keyId === keyId) entries.delete(key);
    },
    clear(): void {
      entries.clear();
    },
  };
}

export type KeyCache = ReturnType<typeof makeKeyCache>;
