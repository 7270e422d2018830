import type { Tracer } from "@opentelemetry/api";
import { loadConfig as loadBillingConfig, startBilling } from "@pasarela/billing";
import { connectBus, type Bus } from "@pasarela/bus";
import { billing } from "@pasarela/contracts";
import { startTracing, type Logger } from "@pasarela/telemetry";
import { openDatabase } from "@pasarela/db";
import { fileInfra } from "@pasarela/testing";
import { buildApp, schema, type AppDeps, type EdgeApp } from "../src/index.js";
import type { PanelSettings } from "../src/panel/context.js";
import type { EdgeDatabase } from "../src/panel/db/database.js";
import { makeSessionStore, type SessionStore } from "../src/panel/sessions.js";

/** A fresh account and a key of `scope` on it, made through billing as the admin CLI would. */
export async function newKey(client: Bus, scope: billing.KeyScope) {
  const account = await client.request(billing.accountCreate, { name: "Cliente" });
  if (!account.ok) throw new Error(account.error.message);
  const key = await client.request(billing.keyCreate, {
    accountId: account.value.accountId,
    scope,
  });
  if (!key.ok) throw new Error(key.error.message);
  return { accountId: account.value.accountId, ...key.value };
}

export interface BillingEdge {
  edge: EdgeApp;
  /** the bus the edge uses */
  edgeBus: Bus;
  /** a bus of the test's own, for billing requests the edge does not make */
  client: Bus;
  tracer: Tracer;
  /** the dashboard's session store, when the edge serves /panel */
  sessions: SessionStore | undefined;
  /** this file's own database */
  databaseUrl: string;
  /** this file's own NATS and subject prefix, for other services started beside billing */
  natsUrl: string;
  prefix: string;
  stop: () => Promise<void>;
}

/**
 * The edge in process with billing only (keys), on this test file's own database and subject
 * prefix: enough for authentication, errors, docs and health without any authority.
 */
export async function startBillingEdge(options: {
  pepper: string;
  logger: Logger;
  /** billing's logger; the edge's by default */
  billingLogger?: Logger;
  /** the edge bus's default request timeout */
  requestTimeoutMs?: number;
  app?: Pick<AppDeps, "bodyLimit" | "routes" | "requestTimeoutMs" | "connectionTimeoutMs">;
  /** serve the dashboard, its sessions in this file's database (schema edge) */
  panel?: Partial<PanelSettings>;
}): Promise<BillingEdge> {
  const infra = await fileInfra();
  let billingService: Awaited<ReturnType<typeof startBilling>>;
  try {
    billingService = await startBilling(
      loadBillingConfig({
        NATS_URL: infra.natsUrl,
        NATS_PREFIX: infra.prefix,
        DATABASE_URL: infra.databaseUrl,
        CURSOR_KEY: "Y3Vyc29yLXRlc3Qta2V5LWN1cnNvci10ZXN0LWtleSE=",
        API_KEY_PEPPER: options.pepper,
      }),
      options.billingLogger ?? options.logger,
    );
  } catch (error) {
    await infra.cleanup();
    throw error;
  }
  const { tracer } = startTracing({ service: "test" });
  const busOptions = { url: infra.natsUrl, prefix: infra.prefix, tracer, logger: options.logger };
  const client = await connectBus({ ...busOptions, name: "test" });
  const edgeBus = await connectBus({
    ...busOptions,
    name: "edge",
    ...(options.requestTimeoutMs === undefined
      ? {}
      : { defaultTimeoutMs: options.requestTimeoutMs }),
  });
  const database = options.panel
    ? openDatabase<EdgeDatabase>({ url: infra.databaseUrl, schema, poolSize: 4 })
    : undefined;
  const settings: PanelSettings = {
    cookieSecure: true,
    idleMs: 1_800_000,
    absoluteMs: 43_200_000,
    publicUrl: () => "http://127.0.0.1:3000",
    ...options.panel,
  };
  const sessions = database && makeSessionStore(database.db, settings);
  const edge = await buildApp({
    ...options.app,
    bus: edgeBus,
    logger: options.logger,
    tracer,
    ...(sessions ? { panel: { sessions, settings } } : {}),
  });
  return {
    edge,
    edgeBus,
    client,
    tracer,
    sessions,
    databaseUrl: infra.databaseUrl,
    natsUrl: infra.natsUrl,
    prefix: infra.prefix,
    stop: async () => {
      await edge.close();
      await database?.close();
      await edgeBus.close();
      await client.close();
      await billingService.stop();
      await infra.cleanup();
    },
  };
}
