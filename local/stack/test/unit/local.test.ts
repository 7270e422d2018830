import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  gatewayServices,
  localNats,
  localStackOptions,
  type LocalStackInput,
  type StackOptions,
} from "../../src/index.js";

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "pasarela-local-"));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const input = (
  env: Record<string, string | undefined>,
  isolated?: LocalStackInput["isolated"],
): LocalStackInput => ({
  root: "/repo",
  dataDir,
  env,
  say: () => {},
  natsUrl: "nats://127.0.0.1:4222",
  databaseUrl: "postgres://postgres@127.0.0.1:5432/pasarela",
  isolated,
});

/** The options with every port and the prefix taken out: what must not differ. */
function withoutPorts(options: StackOptions): unknown {
  const { edgePort: _edge, prefix: _prefix, ...rest } = options;
  return {
    ...rest,
    simulator: rest.simulator && { ...rest.simulator, port: 0, httpsPort: 0 },
    paymentsSimulator: rest.paymentsSimulator && { ...rest.paymentsSimulator, port: 0 },
    mailSink: rest.mailSink && { ...rest.mailSink, port: 0 },
    metrics: rest.metrics && { ...rest.metrics, portBase: 0 },
  };
}

describe("the stack npm start runs", () => {
  it("runs the simulator with its state and HTTPS, the payments stand-in, the mail sink and metrics, on the known ports", () => {
    const options = localStackOptions(input({}));
    expect(options).toMatchObject({
      edgePort: 3000,
      simulator: {
        port: 4400,
        httpsPort: 4401,
        stateFile: join(dataDir, "authority-sim.json"),
        tlsCaFile: join(dataDir, "authority-sim-ca.pem"),
      },
      paymentsSimulator: { port: 4500 },
      mailSink: { directory: join(dataDir, "mail"), port: 2525 },
      metrics: { portBase: 9464 },
      output: "terminal",
      env: { LOG_LEVEL: "warn", PDF_STORAGE_DIR: join(dataDir, "pdf") },
    });
    expect(options.prefix).toBeUndefined();
  });

  it("is the same stack when isolated for a benchmark, but for free ports and the prefix", () => {
    for (const env of [
      {},
      { SIM_HTTPS_PORT: "off", METRICS_PORT_BASE: "off", LOG_LEVEL: "info" },
      { SMTP_URL: "smtp://relay:25", MERCADOPAGO_API_URL: "https://mp.example" },
      { AUTHORITY: "real", EDGE_PORT: "3100", SIM_PORT: "4410", PDF_STORAGE_DIR: "/srv/pdf" },
    ]) {
      const started = localStackOptions(input(env));
      const isolated = localStackOptions(input(env, { prefix: "bench1" }));
      expect(withoutPorts(isolated)).toEqual(withoutPorts(started));
      expect(isolated.prefix).toBe("bench1");
      expect(isolated.edgePort).toBeUndefined();
      expect(isolated.simulator?.port).toBeUndefined();
      expect(isolated.paymentsSimulator?.port).toBeUndefined();
      expect(isolated.mailSink?.port).toBeUndefined();
      expect(isolated.metrics?.portBase).toBeUndefined();
    }
  });

  it("turns parts off from the variables alike", () => {
    const options = localStackOptions(
      input(
        {
          AUTHORITY: "real",
          SMTP_URL: "smtp://relay:25",
          MERCADOPAGO_API_URL: "https://mp.example",
          METRICS_PORT_BASE: "off",
        },
        { prefix: undefined },
      ),
    );
    expect(options.simulator).toBeUndefined();
    expect(options.mailSink).toBeUndefined();
    expect(options.paymentsSimulator).toBeUndefined();
    expect(options.metrics).toBeUndefined();
    expect(localStackOptions(input({ SIM_HTTPS_PORT: "off" })).simulator?.httpsPort).toBe("off");
  });

  it("keeps its secrets in the data folder, so a restart keeps keys valid", () => {
    const first = localStackOptions(input({})).env;
    const second = localStackOptions(input({}, { prefix: "bench1" })).env;
    expect(second).toEqual(first);
    expect(Object.keys(first ?? {})).toEqual(
      expect.arrayContaining(["API_KEY_PEPPER", "KEY_ENCRYPTION_KEY", "CURSOR_KEY"]),
    );
  });

  it("on a cluster, keeps 3 replicas of each stream and runs 2 processes of every service", async () => {
    const single = localStackOptions(input({}));
    expect(single.replicas).toBeUndefined();
    expect(single.env?.NATS_STREAM_REPLICAS).toBeUndefined();
    const cluster = localStackOptions({ ...input({}), cluster: true });
    expect(cluster.env?.NATS_STREAM_REPLICAS).toBe("3");
    expect(cluster.replicas).toEqual(Object.fromEntries(gatewayServices.map((s) => [s, 2])));
    // the cluster is always the launcher's own: a configured server is refused, not ignored
    await expect(
      localNats(
        { root: "/repo", dataDir, env: { NATS_URL: "nats://10.0.0.1:4222" }, say: () => {} },
        undefined,
        { cluster: true },
      ),
    ).rejects.toThrow("--cluster starts its own nats-servers: unset NATS_URL");
  });
});
