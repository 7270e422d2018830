import { configDefaults, defineConfig } from "vitest/config";

// Workspace packages export their TypeScript sources under this condition, so tests run
// against src/ without a build; Node at run time takes the compiled dist/ files.
const conditions = ["@pasarela/source"];

// Pure logic, no NATS, PostgreSQL, simulator or socket: `npm run test:unit` runs these alone,
// without any infrastructure. New unit tests go under a `test/unit/` folder; a file not listed
// here runs with the integration tests, so nothing is ever left out of `npm test`.
const unit = [
  "services/*/test/unit/**/*.test.ts",
  "shared/*/test/unit/**/*.test.ts",
  "local/*/test/unit/**/*.test.ts",
  "server/test/unit/**/*.test.ts",
  "services/admin/test/flags.test.ts",
  "services/catalog/test/domain.test.ts",
  "services/wsfe/test/domain.test.ts",
  "services/wsfe/test/adapter.test.ts",
  "services/wsfex/test/adapter.test.ts",
  "shared/authority/test/access-ticket-cache.test.ts",
  "shared/authority/test/wsaa-faults.test.ts",
  "shared/config/test/*.test.ts",
  "shared/errors/test/*.test.ts",
  "shared/telemetry/test/*.test.ts",
  "tests/deploy/**/*.test.ts",
];

const exclude = [...configDefaults.exclude, "**/dist/**"];
// NATS and PostgreSQL for every file that needs them, resolved once per run (tests/setup)
const globalSetup = ["./tests/setup/global.ts"];

// Files that kill processes, cut the database off or time recoveries: they run after the rest,
// never beside them, so their figures measure the gateway rather than the other files' load
// (`npm test` runs the cluster test, which paces its own load, beside the short ones, then chaos
// alone: tests/runner/suite.ts). The cluster test (the production topology through a NATS
// server's loss, kills and a rolling restart: two dozen processes and a 3-node cluster for about
// three minutes) is among them.
const alone = [
  "tests/e2e/chaos.test.ts",
  "tests/e2e/exactly-once.test.ts",
  "tests/e2e/failover.test.ts",
  "tests/e2e/nats-cluster.test.ts",
  "tests/e2e/faults.test.ts",
  "tests/e2e/cluster.test.ts",
];

// Most of an end-to-end file's time is spent waiting (on processes starting, on leases, on the
// simulator), so three files at a time keep two cores busy without starving any of them.
const SHARED_WORKERS = 3;

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // a condition polled for is given ten seconds (vitest's own default is one): on a busy
    // two-core machine a process can take more than a second to get there
    expect: { poll: { timeout: 10_000 } },
    pool: "forks",
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          // pure code, no state between files: one module graph per worker rather than per file
          // (a third of the project's time was spent loading modules again)
          isolate: false,
          include: unit,
          exclude,
          maxWorkers: SHARED_WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          // the files of a worker share its modules too: each starts and stops its own services
          // and connections, and what a stopped service leaves registered (a metric's collect)
          // gives way to the next one's
          isolate: false,
          include: [
            "shared/*/test/**/*.test.ts",
            "services/*/test/**/*.test.ts",
            "local/*/test/**/*.test.ts",
            "server/test/**/*.test.ts",
          ],
          exclude: [...exclude, ...unit],
          globalSetup,
          maxWorkers: SHARED_WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        // whole stacks on a shared machine: a step waits on process restarts and leases
        test: {
          name: "e2e",
          // the state lives in the stacks' processes: the files of a worker share its modules
          isolate: false,
          include: ["tests/e2e/**/*.test.ts"],
          exclude: [...exclude, ...alone],
          globalSetup,
          testTimeout: 60_000,
          maxWorkers: SHARED_WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "e2e-alone",
          include: alone,
          exclude,
          globalSetup,
          testTimeout: 60_000,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
