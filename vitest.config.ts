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

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    projects: [
      { extends: true, test: { name: "unit", include: unit, exclude } },
      {
        extends: true,
        test: {
          name: "integration",
          include: [
            "shared/*/test/**/*.test.ts",
            "services/*/test/**/*.test.ts",
            "local/*/test/**/*.test.ts",
          ],
          exclude: [...exclude, ...unit],
          globalSetup,
        },
      },
      {
        extends: true,
        // whole stacks on a shared machine: a step waits on process restarts and leases
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          exclude,
          globalSetup,
          testTimeout: 60_000,
        },
      },
    ],
  },
});
