import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  natsAnswers,
  postgresAnswers,
  startPrivateNats,
  startPrivatePostgres,
  type Running,
} from "@pasarela/servers";

export interface TestInfra {
  natsUrl: string;
  /** a URL to the server's maintenance database; tests get their own cloned databases */
  databaseUrl: string;
  describe: string;
  stop(): Promise<void>;
}

/** Starts a private server, or fails saying what to install. */
async function privately(start: () => Promise<Running>, missing: string): Promise<Running> {
  try {
    return await start();
  } catch (error) {
    throw new Error(`${missing} (${error instanceof Error ? error.message : String(error)})`);
  }
}

const configured = (url: string): Running => ({
  url,
  source: "configured",
  stop: () => Promise.resolve(),
});

async function containerRuntimeAnswers(): Promise<boolean> {
  try {
    const { getContainerRuntimeClient } = await import("testcontainers");
    await Promise.race([
      getContainerRuntimeClient(),
      new Promise((_, reject) => setTimeout(() => reject(new Error("timeout")), 5_000)),
    ]);
    return true;
  } catch {
    return false;
  }
}

async function containerNats(): Promise<Running> {
  const { GenericContainer, Wait } = await import("testcontainers");
  const container = await new GenericContainer("nats:2.10-alpine")
    .withCommand(["-js"])
    .withExposedPorts(4222)
    .withWaitStrategy(Wait.forLogMessage(/Server is ready/))
    .start();
  return {
    url: `nats://${container.getHost()}:${container.getMappedPort(4222)}`,
    source: "container",
    stop: async () => {
      await container.stop();
    },
  };
}

async function containerPostgres(): Promise<Running> {
  const { GenericContainer, Wait } = await import("testcontainers");
  const container = await new GenericContainer("postgres:16-alpine")
    .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: "trust" })
    .withExposedPorts(5432)
    .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
    .start();
  return {
    url: `postgres://postgres@${container.getHost()}:${container.getMappedPort(5432)}/postgres`,
    source: "container",
    stop: async () => {
      await container.stop();
    },
  };
}

/**
 * NATS with JetStream and PostgreSQL for the tests, in this order: NATS_URL / DATABASE_URL;
 * containers where a container runtime answers; the installed binaries started privately.
 * With none of them the run fails saying what to install; it never skips silently.
 */
export async function resolveTestInfra(): Promise<TestInfra> {
  const runDir = join(tmpdir(), `pasarela-test-${process.pid}`);
  const started: Running[] = [];
  const stop = async () => {
    await Promise.all(started.map((r) => r.stop()));
  };
  try {
    let nats: Running | undefined = process.env.NATS_URL
      ? configured(process.env.NATS_URL)
      : undefined;
    let postgres: Running | undefined = process.env.DATABASE_URL
      ? configured(process.env.DATABASE_URL)
      : undefined;
    if (nats && !(await natsAnswers(nats.url)))
      throw new Error(`NATS_URL ${nats.url} does not answer`);
    if (postgres && !(await postgresAnswers(postgres.url)))
      throw new Error("DATABASE_URL does not answer");
    const track = (r: Running) => (started.push(r), r);
    if ((!nats || !postgres) && (await containerRuntimeAnswers())) {
      nats ??= track(await containerNats());
      postgres ??= track(await containerPostgres());
    }
    const natsReady =
      nats ??
      track(
        await privately(
          () => startPrivateNats(join(runDir, "nats")),
          "No NATS for the tests: set NATS_URL, run a container runtime, or install nats-server (apt-get install nats-server)",
        ),
      );
    const postgresReady =
      postgres ??
      track(
        await privately(
          () => startPrivatePostgres(join(runDir, "postgres")),
          "No PostgreSQL for the tests: set DATABASE_URL, run a container runtime, or install PostgreSQL (apt-get install postgresql)",
        ),
      );
    return {
      natsUrl: natsReady.url,
      databaseUrl: postgresReady.url,
      describe: `nats ${natsReady.source}, postgres ${postgresReady.source}`,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
