import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { natsAuthorization, natsGrants, natsPasswordVariable } from "@pasarela/contracts";
import { gatewayServices } from "@pasarela/stack";
import { describe, expect, it } from "vitest";
import { deployDir, readYamlDocuments, root, run, which } from "./support.js";

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
}
interface Container {
  name: string;
  env?: { name: string; value?: string; valueFrom?: unknown }[];
  readinessProbe?: unknown;
  livenessProbe?: unknown;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
}
interface PodTemplate {
  metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
  spec: { containers: Container[] };
}

const manifests = readYamlDocuments(join(deployDir, "kubernetes", "pasarela.yaml")) as Manifest[];
const byKind = (kind: string) => manifests.filter((m) => m.kind === kind);
const named = (kind: string, name: string) =>
  manifests.find((m) => m.kind === kind && m.metadata.name === name);
const SECRET_VARIABLES =
  /^(DATABASE_URL|API_KEY_PEPPER|KEY_ENCRYPTION_KEY|CURSOR_KEY|NATS_PASSWORD.*|POSTGRES_PASSWORD)$/;

describe("kubernetes manifests (deploy/kubernetes)", () => {
  it("are valid against the Kubernetes schemas (kubernetes-models)", async () => {
    expect(manifests.length).toBeGreaterThan(10);
    for (const manifest of manifests) {
      const group = (await import(`kubernetes-models/${manifest.apiVersion}`)) as Record<
        string,
        new (data: unknown) => { validate(): void }
      >;
      const Model = group[manifest.kind];
      expect(Model, `${manifest.apiVersion} ${manifest.kind}`).toBeDefined();
      expect(
        () => new Model!(manifest).validate(),
        `${manifest.kind}/${manifest.metadata.name}`,
      ).not.toThrow();
      expect(manifest.metadata.name === "pasarela" || manifest.metadata.namespace).toBeTruthy();
    }
  });

  it("runs every gateway service twice, probed, with resources, scraped, and a disruption budget", () => {
    for (const service of gatewayServices) {
      const deployment = named("Deployment", service);
      expect(deployment, service).toBeDefined();
      const spec = deployment!.spec as { replicas: number; template: PodTemplate };
      expect(spec.replicas, service).toBeGreaterThanOrEqual(2);
      const annotations = spec.template.metadata.annotations ?? {};
      expect(annotations["prometheus.io/scrape"], service).toBe("true");
      expect(annotations["prometheus.io/port"], service).toBe("9464");
      for (const container of spec.template.spec.containers) {
        expect(container.readinessProbe, service).toBeDefined();
        expect(container.livenessProbe, service).toBeDefined();
        expect(container.resources?.requests?.cpu, service).toBeDefined();
        expect(container.resources?.requests?.memory, service).toBeDefined();
        expect(container.resources?.limits?.memory, service).toBeDefined();
        const env = Object.fromEntries((container.env ?? []).map((e) => [e.name, e]));
        expect(env.NATS_USER?.value, service).toBe(service);
        expect(env.NATS_PASSWORD?.valueFrom, service).toBeDefined();
        // secrets only from Secrets, never written here
        for (const variable of container.env ?? []) {
          if (SECRET_VARIABLES.test(variable.name)) {
            expect(variable.value, `${service} ${variable.name}`).toBeUndefined();
            expect(variable.valueFrom, `${service} ${variable.name}`).toHaveProperty(
              "secretKeyRef",
            );
          }
        }
      }
      const budget = byKind("PodDisruptionBudget").find(
        (p) =>
          (p.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels
            .app === spec.template.metadata.labels.app,
      );
      expect(budget, `${service} PodDisruptionBudget`).toBeDefined();
    }
    // only the processes that need a secret see it
    const secretsOf = (service: string) =>
      (
        (named("Deployment", service)!.spec as { template: PodTemplate }).template.spec
          .containers[0]!.env ?? []
      )
        .filter((e) => e.valueFrom)
        .map((e) => e.name);
    expect(secretsOf("edge")).toEqual(["NATS_PASSWORD", "DATABASE_URL"]);
    expect(secretsOf("billing")).not.toContain("KEY_ENCRYPTION_KEY");
    expect(secretsOf("ticket")).not.toContain("API_KEY_PEPPER");
    // the services that page lists seal their cursors under one key
    for (const service of ["billing", "catalog", "wsfe"]) {
      expect(secretsOf(service), service).toContain("CURSOR_KEY");
    }
  });

  it("runs NATS as a 3-node JetStream cluster with the generated grants", () => {
    const nats = named("StatefulSet", "nats")!.spec as { replicas: number };
    expect(nats.replicas).toBe(3);
    const config = named("ConfigMap", "nats-config")!.data!;
    expect(config["authorization.conf"]).toBe(natsAuthorization());
    for (let i = 0; i < 3; i++) {
      expect(config["nats.conf"]).toContain(`nats://nats-${i}.nats-headless.pasarela.svc:6222`);
    }
    expect(config["nats.conf"]).toMatch(/jetstream/);
    expect(named("PodDisruptionBudget", "nats")).toBeDefined();
  });

  it("gives the NATS servers every identity's password, each from the pasarela-nats secret", () => {
    const spec = named("StatefulSet", "nats")!.spec as { template: PodTemplate };
    const env = spec.template.spec.containers.find((c) => c.name === "nats")?.env ?? [];
    // the generated authorization reads each of them: one missing and the server does not start
    for (const id of Object.keys(natsGrants) as (keyof typeof natsGrants)[]) {
      const variable = natsPasswordVariable(id);
      expect(env.find((e) => e.name === variable)?.valueFrom, variable).toEqual({
        secretKeyRef: { name: "pasarela-nats", key: variable },
      });
    }
  });

  const natsServer =
    which("nats-server") ?? (which("/usr/sbin/nats-server") ? "/usr/sbin/nats-server" : undefined);
  it.skipIf(!natsServer)("nats-server accepts the cluster's configuration", () => {
    const config = named("ConfigMap", "nats-config")!.data!;
    const dir = mkdtempSync(join(tmpdir(), "pasarela-k8s-nats-"));
    try {
      for (const [file, text] of Object.entries(config)) writeFileSync(join(dir, file), text);
      const env: Record<string, string> = { POD_NAME: "nats-0" };
      for (const id of Object.keys(natsGrants) as (keyof typeof natsGrants)[]) {
        env[natsPasswordVariable(id)] = "pcomprobacion";
      }
      const check = run(natsServer!, ["-c", join(dir, "nats.conf"), "-t"], { env });
      expect(check.status, check.output).toBe(0);
      expect(check.output).toMatch(/is valid/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// `docker compose config` needs the compose plugin; the check skips, saying so, without it.
const composeAvailable =
  which("docker") !== undefined && run("docker", ["compose", "version"]).status === 0;
describe("docker-compose.yml", () => {
  it.skipIf(!composeAvailable)("is accepted by docker compose config", () => {
    const env: Record<string, string> = {
      POSTGRES_PASSWORD: "x",
      API_KEY_PEPPER: "x",
      KEY_ENCRYPTION_KEY: "x",
      CURSOR_KEY: "x",
    };
    for (const id of Object.keys(natsGrants) as (keyof typeof natsGrants)[]) {
      env[natsPasswordVariable(id)] = "px";
    }
    const check = run(
      "docker",
      ["compose", "-f", join(root, "docker-compose.yml"), "config", "--quiet"],
      { env },
    );
    expect(check.status, check.output).toBe(0);
  });
  if (!composeAvailable) {
    it("is checked by docker compose config only where the compose plugin is installed (it is not here)", () => {
      expect(composeAvailable).toBe(false);
    });
  }

  it("gives every gateway service its own NATS user and a metrics port", () => {
    const compose = readYamlDocuments(join(root, "docker-compose.yml"))[0] as {
      services: Record<string, { environment?: Record<string, string> }>;
      "x-service": { environment: Record<string, string> };
    };
    expect(compose["x-service"].environment.METRICS_PORT).toBe("9464");
    for (const service of gatewayServices) {
      const environment = compose.services[service]?.environment ?? {};
      expect(environment.NATS_USER, service).toBe(service);
      expect(environment.NATS_PASSWORD, service).toBe(
        `\${${natsPasswordVariable(service as keyof typeof natsGrants)}}`,
      );
    }
  });
});
