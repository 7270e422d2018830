import { createTemplateDatabase, dropDatabase, resolveTestInfra } from "@pasarela/testing";
import type { TestProject } from "vitest/node";
import { serviceMigrations } from "./migrations.js";

/**
 * Starts (or finds) NATS and PostgreSQL once for the whole run, migrates a template database,
 * and hands both to the test files, which clone the template and use their own subject prefix.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const infra = await resolveTestInfra();
  const template = `pasarela_tpl_${process.pid}`;
  await createTemplateDatabase(infra.databaseUrl, template, serviceMigrations);
  project.provide("natsUrl", infra.natsUrl);
  project.provide("databaseServerUrl", infra.databaseUrl);
  project.provide("templateDatabase", template);
  process.stdout.write(`test infrastructure: ${infra.describe}\n`);
  return async () => {
    await dropDatabase(infra.databaseUrl, template);
    await infra.stop();
  };
}
