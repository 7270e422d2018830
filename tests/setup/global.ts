import { createTemplateDatabase, dropDatabase, resolveTestInfra } from "@pasarela/testing";
import type { TestProject } from "vitest/node";
import { serviceMigrations } from "./migrations.js";

interface SharedInfra {
  ready: Promise<{
    natsUrl: string;
    databaseUrl: string;
    template: string;
    stop: () => Promise<void>;
  }>;
  users: number;
}

// The integration and e2e projects both declare this setup; private servers and the template
// are per process, so the run resolves them once and the last project to finish tears down.
const SHARED = Symbol.for("pasarela.test-infrastructure");
const holder = globalThis as { [SHARED]?: SharedInfra };

async function start(): Promise<Awaited<SharedInfra["ready"]>> {
  const infra = await resolveTestInfra();
  const template = `pasarela_tpl_${process.pid}`;
  await createTemplateDatabase(infra.databaseUrl, template, serviceMigrations);
  process.stdout.write(`test infrastructure: ${infra.describe}\n`);
  return {
    natsUrl: infra.natsUrl,
    databaseUrl: infra.databaseUrl,
    template,
    stop: async () => {
      await dropDatabase(infra.databaseUrl, template);
      await infra.stop();
    },
  };
}

/**
 * Starts (or finds) NATS and PostgreSQL once for the whole run, migrates a template database,
 * and hands both to the test files, which clone the template and use their own subject prefix.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const shared = (holder[SHARED] ??= { ready: start(), users: 0 });
  shared.users++;
  const infra = await shared.ready;
  project.provide("natsUrl", infra.natsUrl);
  project.provide("databaseServerUrl", infra.databaseUrl);
  project.provide("templateDatabase", infra.template);
  return async () => {
    shared.users--;
    if (shared.users > 0) return;
    delete holder[SHARED];
    await infra.stop();
  };
}
