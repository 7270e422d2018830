import { contractsOf, natsGrants, permissionsOf, type NatsIdentity } from "./permissions.js";

/*
 * The grants of permissions.ts as nats-server reads them: one user per identity, its password
 * from the server's environment. `npm run nats-config` writes deploy/nats/authorization.conf
 * from here.
 */

/** The environment variable holding an identity's password in the server's configuration. */
export function natsPasswordVariable(identity: NatsIdentity): string {
  return `NATS_PASSWORD_${identity.toUpperCase()}`;
}

/**
 * A random password for one identity. nats-server parses a `$VARIABLE` taken from its
 * environment as a configuration value, so a password there must read as a plain word:
 * letters and digits, starting with a letter (a leading digit would make it a number).
 */
export function newNatsPassword(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(24));
  return `p${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

const quoted = (list: readonly string[]) => list.map((s) => JSON.stringify(s)).join(", ");

/**
 * How many messages a responder may send to one request's reply subject, and for how long.
 * `allow_responses: true` lets only one through, but a handler that works for longer than one
 * progress period (shared/bus liveness: 750 ms) sends progress messages to the same inbox
 * before its reply: the first would use up the allowance, and the reply would be dropped by
 * the server (the requester then takes the responder for dead). So the allowance covers the
 * longest contract's deadline with a progress message every 250 ms or less often, and it
 * expires 30 s after that deadline.
 */
function responseAllowance(): { max: number; expires: string } {
  const longest = Math.max(
    ...Object.values(natsGrants).flatMap((grant) =>
      "serves" in grant ? contractsOf(grant.serves).map((c) => c.timeoutMs ?? 0) : [],
    ),
  );
  return { max: Math.ceil(longest / 250) + 1, expires: `${Math.ceil(longest / 1000) + 30}s` };
}

/**
 * The `authorization` block of nats-server's configuration (2.9 syntax): one user per
 * identity, its password read from the server's environment (natsPasswordVariable), and its
 * grants. Anything not granted is refused.
 */
export function natsAuthorization(prefix?: string): string {
  const allowance = responseAllowance();
  const users = (Object.keys(natsGrants) as NatsIdentity[]).map((identity) => {
    const p = permissionsOf(identity, prefix);
    return [
      `    {`,
      `      user: ${JSON.stringify(identity)}`,
      `      password: $${natsPasswordVariable(identity)}`,
      `      permissions: {`,
      `        publish: { allow: [${quoted(p.publish)}] }`,
      `        subscribe: { allow: [${quoted(p.subscribe)}] }`,
      ...(p.allowResponses
        ? [`        allow_responses: { max: ${allowance.max}, expires: "${allowance.expires}" }`]
        : []),
      `      }`,
      `    }`,
    ].join("\n");
  });
  return [
    `# Generated from shared/contracts (permissions.ts): do not edit by hand.`,
    `# Each identity's password comes from the server's environment.`,
    `authorization {`,
    `  users: [`,
    users.join("\n"),
    `  ]`,
    `}`,
    ``,
  ].join("\n");
}
