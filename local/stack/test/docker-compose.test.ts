import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { gatewayServices } from "../src/index.js";

/** The repository root: the folder holding docker-compose.yml above this package. */
function composeFile(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      return readFileSync(join(dir, "docker-compose.yml"), "utf8");
    } catch {
      const parent = dirname(dir);
      if (parent === dir) throw new Error("docker-compose.yml not found");
      dir = parent;
    }
  }
}

/**
 * The compose file's own services, each with its text block (top-level `services:` entries
 * are indented two spaces, an anchor may follow the name); checked as text, as the repository
 * has no YAML parser of its own.
 */
function services(text: string): Map<string, string> {
  const body = text.slice(text.indexOf("\nservices:\n"));
  const blocks = new Map<string, string>();
  for (const m of body.matchAll(/^ {2}([a-z0-9-]+):(?: &[a-z-]+)?\n((?: {4}.*\n|\n)*)/gm)) {
    blocks.set(m[1] ?? "", m[2] ?? "");
  }
  return blocks;
}

/** Published ports of a service block: `ports: ["a:b", ...]`. */
function ports(block: string): string[] {
  const m = /^ {4}ports: \[(.*)\]$/m.exec(block);
  return m === null ? [] : [...(m[1] ?? "").matchAll(/"([^"]+)"/g)].map((p) => p[1] ?? "");
}

describe("docker-compose.yml", () => {
  const text = composeFile();
  const blocks = services(text);

  it("publishes nothing but the edge beyond this machine (the stand-ins, Jaeger on 127.0.0.1)", () => {
    expect([...blocks.keys()]).toEqual(
      expect.arrayContaining([
        "nats-1",
        "nats-2",
        "nats-3",
        "postgres",
        "jaeger",
        "stand-ins",
        "edge",
      ]),
    );
    for (const [name, block] of blocks) {
      if (name === "edge") continue;
      for (const port of ports(block)) expect(port, name).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
    }
    // the simulator's HTTP and HTTPS, and Mercado Pago's stand-in
    expect(ports(blocks.get("stand-ins") ?? "")).toEqual([
      "127.0.0.1:4400:4400",
      "127.0.0.1:4401:4401",
      "127.0.0.1:4500:4500",
    ]);
    expect(ports(blocks.get("jaeger") ?? "")).toEqual(["127.0.0.1:16686:16686"]);
    for (const nats of ["nats-1", "nats-2", "nats-3"])
      expect(ports(blocks.get(nats) ?? "")).toEqual([]);
    expect(ports(blocks.get("postgres") ?? "")).toEqual([]);
  });

  it("publishes of the edge its HTTP port only, one host port for each of its containers", () => {
    // every service runs as many containers as the shared block says (`deploy: { replicas: N }`)
    const replicas = Number(/^x-service:[^]*?^ {2}deploy: \{ replicas: (\d+) \}$/m.exec(text)?.[1]);
    expect(blocks.get("edge")).not.toMatch(/^ {4}deploy:/m);
    const published = ports(blocks.get("edge") ?? "");
    expect(published).toHaveLength(1);
    // host ports first-last, never an address (every interface) nor a port other than 3000 inside
    const m = /^(\d+)-(\d+):3000$/.exec(published[0] ?? "");
    expect(m, published[0]).not.toBeNull();
    expect(Number(m?.[2]) - Number(m?.[1]) + 1).toBe(replicas);
    expect(blocks.get("edge")).toMatch(/^ {6}EDGE_PORT: "3000"$/m);
  });

  it("runs PostgreSQL with a password (SCRAM), never trust, and hands it to the services", () => {
    const postgres = blocks.get("postgres") ?? "";
    expect(text).not.toMatch(/AUTH_METHOD:\s*trust|--auth[a-z-]*=trust/i);
    expect(postgres).toMatch(/POSTGRES_PASSWORD: \$\{POSTGRES_PASSWORD:\?[^}]*\}/);
    expect(postgres).toMatch(/POSTGRES_HOST_AUTH_METHOD: scram-sha-256/);
    expect(postgres).toMatch(/POSTGRES_INITDB_ARGS: .*--auth-local=scram-sha-256/);
    expect(text).toMatch(
      /DATABASE_URL: postgres:\/\/postgres:\$\{POSTGRES_PASSWORD:\?[^}]*\}@postgres:5432\/pasarela/,
    );
  });

  it("runs every gateway service the launcher runs, the registry's URLs at the simulator", () => {
    for (const name of gatewayServices) expect([...blocks.keys()], name).toContain(name);
    for (const variable of ["PADRON_A13_URL", "PADRON_A10_URL", "PADRON_CONSTANCIA_URL"]) {
      for (const environment of ["homologacion", "produccion"]) {
        expect(text).toMatch(
          new RegExp(
            `${variable}_${environment.toUpperCase()}: http://authority-sim:4400/${environment}/sr-padron/webservices/personaService`,
          ),
        );
      }
    }
  });
});
