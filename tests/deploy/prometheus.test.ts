import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gatewayServices } from "@pasarela/stack";
import { describe, expect, it } from "vitest";
import { definedSeries, deployDir, readYaml, run, seriesIn, which } from "./support.js";

const dir = join(deployDir, "prometheus");
const promtool = which("promtool");

interface Rule {
  alert?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
interface Rules {
  groups: { name: string; rules: Rule[] }[];
}

const rules = readYaml(join(dir, "alerts.yml")) as Rules;
const alerts = rules.groups.flatMap((g) => g.rules);
const series = definedSeries();

describe("prometheus: alert rules and scrape configs", () => {
  it("raises the alerts operations asks for, each with a severity and a summary", () => {
    expect(alerts.map((r) => r.alert)).toEqual(
      expect.arrayContaining([
        "PasarelaAuthority502Rate",
        "PasarelaAuthorityCallsFailing",
        "PasarelaTicketLoginsFailing",
        "PasarelaCertificatesExpiringSoon",
        "PasarelaJetStreamConsumerLag",
        "PasarelaEventLoopLag",
      ]),
    );
    for (const rule of alerts) {
      expect(rule.labels?.severity, rule.alert).toMatch(/^(page|warn)$/);
      expect(rule.annotations?.summary, rule.alert).toBeTruthy();
    }
  });

  it("reads only series the services register", () => {
    for (const rule of alerts) {
      for (const name of seriesIn(rule.expr)) expect(series, rule.alert).toContain(name);
    }
  });

  it("scrapes every gateway service in compose and discovers annotated pods in kubernetes", () => {
    const compose = readYaml(join(dir, "prometheus.yml")) as {
      rule_files: string[];
      scrape_configs: { static_configs: { targets: string[] }[] }[];
    };
    expect(compose.rule_files).toEqual(["alerts.yml"]);
    const targets = compose.scrape_configs.flatMap((c) =>
      c.static_configs.flatMap((s) => s.targets),
    );
    for (const service of gatewayServices) {
      expect(targets).toContain(`${service}:9464`);
    }
    const k8s = readFileSync(join(dir, "prometheus-kubernetes.yml"), "utf8");
    expect(k8s).toContain("__meta_kubernetes_pod_annotation_prometheus_io_scrape");
    expect(k8s).toContain("__meta_kubernetes_pod_annotation_prometheus_io_port");
  });

  // Debian's promtool (package prometheus) is built without Kubernetes service discovery, so
  // prometheus-kubernetes.yml is checked by structure above only.
  it.skipIf(!promtool)("promtool accepts the rules and the compose scrape config", () => {
    const rulesCheck = run(promtool!, ["check", "rules", "alerts.yml"], { cwd: dir });
    expect(rulesCheck.output).toContain("SUCCESS");
    expect(rulesCheck.status).toBe(0);
    const configCheck = run(promtool!, ["check", "config", "prometheus.yml"], { cwd: dir });
    expect(configCheck.status, configCheck.output).toBe(0);
  });

  it.skipIf(!promtool)("promtool's rule tests fire each alert on the series that should", () => {
    const tests = run(promtool!, ["test", "rules", "alerts.test.yml"], { cwd: dir });
    expect(tests.status, tests.output).toBe(0);
    expect(tests.output).toContain("SUCCESS");
  });
});

describe("grafana: the dashboard", () => {
  const dashboard = JSON.parse(
    readFileSync(join(deployDir, "grafana", "pasarela.json"), "utf8"),
  ) as {
    uid: string;
    panels: { id: number; title: string; targets: { expr: string }[] }[];
  };

  it("has a panel per question and unique ids", () => {
    const titles = dashboard.panels.map((p) => p.title).join("\n");
    for (const wanted of [
      /requests per second by route/,
      /errors/,
      /p99 latency by route/,
      /Authority calls by outcome/,
      /Authority p99 latency by operation/,
      /Issuance outcomes/,
      /cache hit ratio/,
      /Certificates expiring/,
      /consumer lag/,
      /Event-loop lag/,
      /memory/,
    ]) {
      expect(titles).toMatch(wanted);
    }
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("queries only series the services register", () => {
    for (const panel of dashboard.panels) {
      expect(panel.targets.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets) {
        for (const name of seriesIn(target.expr)) expect(series, panel.title).toContain(name);
      }
    }
  });
});
