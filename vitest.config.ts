import { defineConfig } from "vitest/config";

// Workspace packages export their TypeScript sources under this condition, so tests run
// against src/ without a build; Node at run time takes the compiled dist/ files.
const conditions = ["@pasarela/source"];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions } },
  test: {
    globalSetup: ["./tests/setup/global.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    include: [
      "shared/*/test/**/*.test.ts",
      "services/*/test/**/*.test.ts",
      "tests/e2e/**/*.test.ts",
    ],
    exclude: ["**/node_modules/**", "**/dist/**"],
    pool: "forks",
  },
});
