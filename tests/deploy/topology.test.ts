import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gatewayServices } from "@pasarela/stack";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { topology } from "../support/topology.js";
import { deployDir, readYamlDocuments, root } from "./support.js";

// The same topology on paper and on disk: what deploy/kubernetes and docker-compose.yml run is
// what tests/e2e/cluster.test.ts starts and puts through node loss, kills and a rolling restart.
interface Manifest {
  kind: string;
  metadata: { name: string };
  spec?: {
    replicas?: number;
    template?: {
      spec: {
        terminationGracePeriodSeconds?: number;
        containers?: { env?: { name: string; value?: string }[] }[];
      };
    };
  };
  data?: Record<string, string>;
}
interface ComposeService {
  deploy?: { replicas?: number };
  stop_grace_period?: string;
  environment?: Record<string, string>;
  command?: string[];
}

const manifests = readYamlDocuments(join(deployDir, "kubernetes", "pasarela.yaml")) as Manifest[];
const named = (kind: string, name: string) =>
  manifests.find((m) => m.kind === kind && m.metadata.name === name);
// with its `<<:` merge keys resolved, as compose reads it
const compose = parse(readFileSync(join(root, "docker-compose.yml"), "utf8"), { merge: true }) as {
  services: Record<string, ComposeService>;
};

/** `30s`, `1m30s`, `500ms` (compose durations) in milliseconds */
function durationMs(text: string): number {
  let ms = 0;
  for (const [, value, unit] of text.matchAll(/(\d+)(ms|s|m|h)/g)) {
    ms += Number(value) * { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }[unit as "ms"];
  }
  return ms;
}

describe("the topology of deploy/kubernetes, docker-compose.yml and the cluster test agree", () => {
  it("Kubernetes: 3 NATS servers, the streams on all of them, every service twice, drained within its grace period", () => {
    expect(named("StatefulSet", "nats")?.spec?.replicas).toBe(topology.natsNodes);
    const config = named("ConfigMap", "pasarela-config")?.data ?? {};
    expect(config.NATS_STREAM_REPLICAS).toBe(String(topology.streamReplicas));
    expect(config.SHUTDOWN_DRAIN_MS).toBe(String(topology.shutdownDrainMs));
    for (const service of gatewayServices) {
      const spec = named("Deployment", service)?.spec;
      expect(spec?.replicas, service).toBe(topology.serviceReplicas);
      const grace = spec?.template?.spec.terminationGracePeriodSeconds;
      expect(grace, service).toBe(topology.terminationGraceSeconds);
    }
    const edge = named("Deployment", "edge")?.spec?.template?.spec.containers?.[0]?.env ?? [];
    expect(edge.find((e) => e.name === "EDGE_STOP_DELAY_MS")?.value).toBe(
      String(topology.edgeStopDelayMs),
    );
    expect(topology.terminationGraceSeconds * 1_000).toBeGreaterThan(
      topology.edgeStopDelayMs + topology.shutdownDrainMs,
    );
  });

  it("compose: the same NATS cluster, replicas, stream replicas, drain and grace period", () => {
    const nats = Object.entries(compose.services).filter(([, s]) =>
      s.command?.includes("/etc/nats/nats-server.conf"),
    );
    expect(nats).toHaveLength(topology.natsNodes);
    const conf = readFileSync(join(deployDir, "nats", "nats-server.conf"), "utf8");
    for (const [name] of nats) expect(conf).toContain(`nats-route://${name}:6222`);
    for (const service of gatewayServices) {
      const s = compose.services[service]!;
      expect(s.deploy?.replicas, service).toBe(topology.serviceReplicas);
      expect(s.environment?.NATS_STREAM_REPLICAS, service).toBe(String(topology.streamReplicas));
      expect(s.environment?.SHUTDOWN_DRAIN_MS, service).toBe(String(topology.shutdownDrainMs));
      expect(s.environment?.NATS_URL?.split(",").sort(), service).toEqual(
        nats.map(([name]) => `nats://${name}:4222`).sort(),
      );
      expect(durationMs(s.stop_grace_period ?? "10s"), service).toBe(
        topology.terminationGraceSeconds * 1_000,
      );
    }
    expect(compose.services.edge?.environment?.EDGE_STOP_DELAY_MS).toBe(
      String(topology.edgeStopDelayMs),
    );
  });
});
