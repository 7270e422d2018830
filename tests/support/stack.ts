import { randomBytes } from "node:crypto";
import { startStack, type Stack, type Supervision } from "@pasarela/stack";
import { fileInfra, type FileInfra } from "@pasarela/testing";
import { cliJson, npmRun, repoRoot, type CliRun } from "./cli.js";

export interface E2EStack extends Stack {
  /** `npm run admin -- ...args` against this stack; answers the JSON object */
  admin: <T = Record<string, unknown>>(...args: string[]) => Promise<T>;
  adminRun: (...args: string[]) => Promise<CliRun>;
  /** `npm run sim -- ...args` against this stack's simulator */
  sim: <T = Record<string, unknown>>(...args: string[]) => Promise<T>;
  simRun: (...args: string[]) => Promise<CliRun>;
  teardown: () => Promise<void>;
}

/**
 * The whole gateway as separate processes (built dist/), with the simulator behind it, on
 * this test file's own database and subject prefix. Process output is kept for assertions.
 */
export async function startE2EStack(
  options: {
    /** extra variables for every service process, e.g. `AUTHORITY_TIMEOUT_MS` */
    env?: Record<string, string>;
    /** how the simulator runs (HTTPS port, where it writes its TLS CA) */
    simulator?: { httpsPort?: number; tlsCaFile?: string };
    /** a NATS server of the test's own (one it may kill) instead of the shared one */
    natsUrl?: string;
    /** restart backoff of the launcher, for tests that watch a killed service come back */
    supervision?: Partial<Supervision>;
  } = {},
): Promise<E2EStack> {
  const infra: FileInfra = await fileInfra();
  const natsUrl = options.natsUrl ?? infra.natsUrl;
  let stack: Stack;
  try {
    stack = await startStack({
      root: repoRoot,
      natsUrl,
      databaseUrl: infra.databaseUrl,
      prefix: infra.prefix,
      simulator: options.simulator ?? {},
      env: {
        API_KEY_PEPPER: randomBytes(32).toString("base64"),
        KEY_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
        LOG_LEVEL: "debug",
        ...options.env,
      },
      output: "memory",
      supervision: options.supervision,
    });
  } catch (error) {
    await infra.cleanup();
    throw error;
  }
  const cliEnv = {
    NATS_URL: natsUrl,
    NATS_PREFIX: infra.prefix,
    SIM_URL: stack.simulatorUrl ?? "",
  };
  return {
    ...stack,
    admin: (...args) => cliJson("admin", args, cliEnv),
    adminRun: (...args) => npmRun("admin", args, cliEnv),
    sim: (...args) => cliJson("sim", args, cliEnv),
    simRun: (...args) => npmRun("sim", args, cliEnv),
    teardown: async () => {
      await stack.stop();
      await infra.cleanup();
    },
  };
}
