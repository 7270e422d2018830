import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as contracts from "@pasarela/contracts";
import {
  isContract,
  isEventContract,
  natsAuthorization,
  natsGrants,
  permissionsOf,
  type Grant,
  type NatsIdentity,
} from "@pasarela/contracts";
import { gatewayServices } from "@pasarela/stack";
import { describe, expect, it } from "vitest";
import { deployDir, root, sourceFiles } from "./support.js";

const namespaces = [
  "billing",
  "ticket",
  "catalog",
  "wsfe",
  "wsfex",
  "padron",
  "pdf",
  "mail",
  "cobros",
  "webhooks",
] as const;
const identities = Object.keys(natsGrants) as NatsIdentity[];

/** The source a process runs: its own src/ and that of the shared libraries that talk on NATS. */
function sourcesOf(identity: NatsIdentity): string[] {
  const dir = join(root, "services", identity);
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
    dependencies?: Record<string, string>;
  };
  const files = sourceFiles(join(dir, "src"));
  if (pkg.dependencies?.["@pasarela/authority"]) {
    files.push(...sourceFiles(join(root, "shared", "authority", "src")));
  }
  return files;
}

/** `ns.name` references in a process's source that name a contract or an event. */
function referencesOf(identity: NatsIdentity): { contracts: Set<string>; events: Set<string> } {
  const found = { contracts: new Set<string>(), events: new Set<string>() };
  const pattern = new RegExp(`\\b(${namespaces.join("|")})\\.([a-z][A-Za-z]+)\\b`, "g");
  for (const file of sourcesOf(identity)) {
    for (const [, ns, name] of readFileSync(file, "utf8").matchAll(pattern)) {
      const value = (contracts[ns as (typeof namespaces)[number]] as Record<string, unknown>)[
        name!
      ];
      if (isContract(value)) found.contracts.add(value.subject);
      else if (isEventContract(value)) found.events.add(value.subject);
    }
  }
  return found;
}

describe("NATS grants (shared/contracts permissions.ts) against the source", () => {
  it("declares every process of the gateway", () => {
    for (const id of identities) expect(existsSync(join(root, "services", id)), id).toBe(true);
    for (const service of gatewayServices) expect(identities, service).toContain(service);
  });

  for (const id of identities) {
    it(`${id}: every contract it uses is one it serves or calls, every event one it publishes or listens to`, () => {
      const grant: Grant = natsGrants[id];
      const allowed = new Set([
        ...(grant.serves ? contracts.contractsOf(grant.serves) : []).map((c) => c.subject),
        ...grant.calls.map((c) => c.subject),
      ]);
      const events = new Set(
        [...grant.publishes, ...grant.listens, ...(grant.reads ?? [])].map((e) => e.subject),
      );
      const used = referencesOf(id);
      for (const subject of used.contracts)
        expect(allowed, `${id} uses ${subject}`).toContain(subject);
      for (const subject of used.events) expect(events, `${id} uses ${subject}`).toContain(subject);
      // and no grant is left over from code that is gone (the edge's health checks are built
      // from service names, not references)
      for (const call of grant.calls) {
        if (call.subject.endsWith(".health.get")) continue;
        expect(used.contracts, `${id} is granted ${call.subject}`).toContain(call.subject);
      }
    });
  }

  it("grants request/reply and events the way the server needs them", () => {
    const billing = permissionsOf("billing", "p");
    expect(billing.subscribe).toContain("p.billing.account.create");
    expect(billing.subscribe).toContain("p.billing.health.get");
    expect(billing.subscribe).toContain("_INBOX.billing.>");
    expect(billing.publish).toContain("p.evt.billing.key.revoked");
    expect(billing.publish).toContain("$JS.API.STREAM.CREATE.p_EVENTS");
    expect(billing.allowResponses).toBe(true);
    const edge = permissionsOf("edge", "p");
    expect(edge.publish).not.toContain("p.billing.account.create");
    expect(edge.publish.some((s) => s.startsWith("$JS."))).toBe(false);
    expect(edge.subscribe).toEqual(["p.evt.billing.key.revoked", "_INBOX.edge.>"]);
    expect(edge.allowResponses).toBe(false);
    // nothing but billing subscribes to billing's subjects; no identity gets a wildcard
    for (const id of identities) {
      const p = permissionsOf(id);
      if (id !== "billing") expect(p.subscribe.filter((s) => s.startsWith("billing."))).toEqual([]);
      for (const s of [...p.publish, ...p.subscribe]) {
        // its own inbox, acks of its own durables, and the filtered creation of its own durable
        // consumers (2.9 puts the filter subject after the durable's name) are the exceptions
        const ownDurable = /^\$JS\.API\.CONSUMER\.CREATE\.[\w-]+\.[\w-]+\.>$/.test(s);
        if (s !== `_INBOX.${id}.>` && !s.startsWith("$JS.ACK.") && !ownDurable) {
          expect(s, id).not.toMatch(/[*>]/);
        }
      }
    }
  });

  it("deploy/nats/authorization.conf is the generated one (npm run nats-config)", () => {
    expect(readFileSync(join(deployDir, "nats", "authorization.conf"), "utf8")).toBe(
      natsAuthorization(),
    );
  });
});
