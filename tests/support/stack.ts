import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  natsAuthorization,
  natsGrants,
  natsPasswordVariable,
  newNatsPassword,
  type NatsIdentity,
} from "@pasarela/contracts";
import { runCli as runAdminCli } from "@pasarela/admin";
import { makeControlClient, runSimulatorCli, UsageError } from "@pasarela/authority-sim";
import {
  gatewayServices,
  localNats,
  startPrivateNats,
  startStack,
  type NatsNode,
  type Running,
  type Stack,
  type Supervision,
  type Topology,
} from "@pasarela/stack";
import { fileInfra, type FileInfra } from "@pasarela/testing";
import { npmRun, repoRoot, type CliRun } from "./cli.js";
import { topology } from "./topology.js";

export interface E2EStack extends Stack {
  /**
   * an operator command (`npm run admin -- ...args`) against this stack, run through the CLI's
   * library in this process: answers its JSON object, or throws its error
   */
  admin: <T = Record<string, unknown>>(...args: string[]) => Promise<T>;
  /** `npm run admin -- ...args` as an operator runs it: the CLI's own tests */
  adminRun: (...args: string[]) => Promise<CliRun>;
  /** a simulator command (`npm run sim -- ...args`) through its library, against this stack's simulator */
  sim: <T = Record<string, unknown>>(...args: string[]) => Promise<T>;
  /** the same, answering what the command prints (a PEM for `cert`) */
  simText: (...args: string[]) => Promise<string>;
  /** `npm run sim -- ...args` as an operator runs it */
  simRun: (...args: string[]) => Promise<CliRun>;
  /** every identity's NATS password when the stack runs withNatsGrants or on a cluster */
  natsPasswords: Record<NatsIdentity, string> | undefined;
  /** the nats-servers of the stack's own cluster (`cluster`), each one killable */
  natsNodes: NatsNode[] | undefined;
  teardown: () => Promise<void>;
}

/**
 * The whole gateway (built dist/), every service in one process unless the test needs one
 * process per service, with the simulator behind it, on this test file's own database and
 * subject prefix. Process output is kept for assertions.
 */
export async function startE2EStack(
  options: {
    /**
     * `processes` for a test that kills or restarts one service's process; `one` (every service
     * in one process, as `npm start` runs them) otherwise. Replicas and the cluster need
     * `processes`, and get it.
     */
    topology?: Topology;
    /** extra variables for every service process, e.g. `AUTHORITY_TIMEOUT_MS` */
    env?: Record<string, string>;
    /** how the simulator runs (HTTPS port, where it writes its TLS CA) */
    simulator?: { httpsPort?: number; tlsCaFile?: string };
    /** a NATS server of the test's own (one it may kill) instead of the shared one */
    natsUrl?: string;
    /** run the local stand-in of Mercado Pago's API (payment links) */
    paymentsSimulator?: boolean;
    /** run the local SMTP sink, as `npm start` does, keeping every message in this folder */
    mailSinkDir?: string;
    /** restart backoff of the launcher, for tests that watch a killed service come back */
    supervision?: Partial<Supervision>;
    /** several processes of a service: `wsfe`, `wsfe-2`, ... */
    replicas?: Record<string, number>;
    /**
     * a private nats-server of the test's own granting each process only its subjects
     * (deploy/nats): every service connects as its own user, the admin CLI as `admin`
     */
    withNatsGrants?: boolean;
    /**
     * the production topology (tests/support/topology.ts) on this machine, as
     * `npm start -- --cluster` runs it: a private 3-node JetStream cluster with the grants,
     * NATS_STREAM_REPLICAS=3 and two processes of every service (`replicas` still adds more)
     */
    cluster?: boolean;
  } = {},
): Promise<E2EStack> {
  const infra: FileInfra = await fileInfra();
  // printed vouchers of this stack only, removed with it
  const pdfDir = mkdtempSync(join(tmpdir(), "e2e-pdf-"));
  const granted = options.cluster
    ? await clusterNats()
    : options.withNatsGrants
      ? await grantedNats(infra.prefix)
      : undefined;
  const natsUrl = granted?.nats.url ?? options.natsUrl ?? infra.natsUrl;
  // the cluster is the stack's own: its grants name the subjects without a prefix
  const prefix = options.cluster ? undefined : infra.prefix;
  const replicas = options.cluster
    ? {
        ...Object.fromEntries(gatewayServices.map((name) => [name, topology.serviceReplicas])),
        ...options.replicas,
      }
    : options.replicas;
  let stack: Stack;
  try {
    stack = await startStack({
      root: repoRoot,
      natsUrl,
      databaseUrl: infra.databaseUrl,
      prefix,
      topology: options.topology ?? (options.cluster || replicas ? "processes" : "one"),
      simulator: options.simulator ?? {},
      env: {
        API_KEY_PEPPER: randomBytes(32).toString("base64"),
        KEY_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
        CURSOR_KEY: randomBytes(32).toString("base64"),
        LOG_LEVEL: "debug",
        PDF_STORAGE_DIR: pdfDir,
        ...(options.cluster
          ? {
              NATS_STREAM_REPLICAS: String(topology.streamReplicas),
              SHUTDOWN_DRAIN_MS: String(topology.shutdownDrainMs),
              EDGE_STOP_DELAY_MS: String(topology.edgeStopDelayMs),
            }
          : {}),
        ...options.env,
      },
      output: "memory",
      supervision: options.supervision,
      metrics: {},
      replicas,
      // two dozen processes starting at once on a machine of two cores
      ...(options.cluster ? { readyTimeoutMs: 180_000 } : {}),
      ...(options.paymentsSimulator ? { paymentsSimulator: {} } : {}),
      ...(options.mailSinkDir ? { mailSink: { directory: options.mailSinkDir } } : {}),
      natsPasswords: granted?.passwords,
    });
  } catch (error) {
    await granted?.stop();
    await infra.cleanup();
    rmSync(pdfDir, { recursive: true, force: true });
    throw error;
  }
  const cliEnv = {
    NATS_URL: natsUrl,
    ...(prefix ? { NATS_PREFIX: prefix } : {}),
    SIM_URL: stack.simulatorUrl ?? "",
    ...(granted ? { NATS_USER: "admin", NATS_PASSWORD: granted.passwords.admin } : {}),
  };
  const simulator = makeControlClient(stack.simulatorUrl ?? "");
  const simText = async (...args: string[]) => {
    try {
      return await runSimulatorCli(args, simulator);
    } catch (error) {
      const kind = error instanceof UsageError ? "usage" : "failed";
      throw new Error(
        `sim ${args.join(" ")} ${kind}: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
  };
  return {
    ...stack,
    admin: async <T>(...args: string[]) => {
      const outcome = await runAdminCli(args, cliEnv);
      if (outcome.exitCode !== 0) {
        throw new Error(
          `admin ${args.join(" ")} failed (${outcome.exitCode}): ${outcome.stderr ?? ""}`,
        );
      }
      return JSON.parse(outcome.stdout ?? "") as T;
    },
    adminRun: (...args) => npmRun("admin", args, cliEnv),
    sim: async <T>(...args: string[]) => JSON.parse(await simText(...args)) as T,
    simText,
    simRun: (...args) => npmRun("sim", args, cliEnv),
    natsPasswords: granted?.passwords,
    natsNodes: granted?.nats.nodes,
    teardown: async () => {
      await stack.stop();
      await granted?.stop();
      await infra.cleanup();
      rmSync(pdfDir, { recursive: true, force: true });
    },
  };
}

/**
 * `npm start -- --cluster`'s NATS (localNats with `cluster`): three nats-servers in one
 * JetStream cluster under a folder of this stack, with the grants and every identity's password.
 */
async function clusterNats(): Promise<{
  nats: Running & { nodes?: NatsNode[] | undefined };
  passwords: Record<NatsIdentity, string>;
  stop: () => Promise<void>;
}> {
  const dir = mkdtempSync(join(tmpdir(), "pasarela-cluster-"));
  try {
    const nats = await localNats(
      { root: repoRoot, dataDir: dir, env: {}, say: () => {} },
      undefined,
      {
        cluster: true,
      },
    );
    return {
      nats,
      passwords: nats.passwords!,
      stop: async () => {
        await nats.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** A private nats-server with the generated grants under `prefix`, and every identity's password. */
async function grantedNats(prefix: string): Promise<{
  nats: Running & { nodes?: NatsNode[] | undefined };
  passwords: Record<NatsIdentity, string>;
  stop: () => Promise<void>;
}> {
  const dir = mkdtempSync(join(tmpdir(), "pasarela-nats-grants-"));
  const identities = Object.keys(natsGrants) as NatsIdentity[];
  const passwords = Object.fromEntries(identities.map((id) => [id, newNatsPassword()])) as Record<
    NatsIdentity,
    string
  >;
  writeFileSync(join(dir, "authorization.conf"), natsAuthorization(prefix));
  const nats = await startPrivateNats(join(dir, "data"), {
    configFile: join(dir, "authorization.conf"),
    env: Object.fromEntries(identities.map((id) => [natsPasswordVariable(id), passwords[id]])),
  });
  return {
    nats,
    passwords,
    stop: async () => {
      await nats.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
