import { generateKeyPairSync, randomUUID } from "node:crypto";
import type { ControlClient, Simulator } from "@pasarela/authority-sim";
import { connectBus, type Bus } from "@pasarela/bus";
import { startTracing, type Logger } from "@pasarela/telemetry";
import type { FileInfra } from "@pasarela/testing";
import forge from "node-forge";
import { loadConfig, startTicket, type TicketOptions } from "../../src/index.js";

/**
 * A ticket instance on this file's bus and database, talking to the simulator, whose
 * subscriptions the server has registered (startService does not flush).
 */
export async function startInstance(
  infra: FileInfra,
  sim: Simulator,
  logger: Logger,
  options: TicketOptions = {},
) {
  const config = loadConfig({
    NATS_URL: infra.natsUrl,
    NATS_PREFIX: infra.prefix,
    DATABASE_URL: infra.databaseUrl,
    KEY_ENCRYPTION_KEY: Buffer.alloc(32, 42).toString("base64"),
    WSAA_URL_HOMOLOGACION: sim.endpoints("homologacion").wsaa,
    WSAA_URL_PRODUCCION: sim.endpoints("produccion").wsaa,
    AUTHORITY_TIMEOUT_MS: "5000",
    LOG_LEVEL: "debug",
  });
  const instance = await startTicket(config, logger, options);
  await instance.bus.connection.flush();
  return instance;
}

/** How many logins the simulator took in homologacion for the alias and service. */
export async function loginCount(
  control: ControlClient,
  alias: string,
  service = "wsfe",
): Promise<number> {
  return (await control.stats("homologacion")).logins[`${alias}|${service}`] ?? 0;
}

export function connectClient(infra: FileInfra, logger: Logger): Promise<Bus> {
  return connectBus({
    url: infra.natsUrl,
    prefix: infra.prefix,
    name: "test",
    logger,
    tracer: startTracing({ service: "test" }).tracer,
    defaultTimeoutMs: 60_000,
  });
}

/** A key and CSR made outside the gateway, as an operator with openssl would. */
export function externalKeyAndCsr(cuit: string, alias: string): { keyPem: string; csrPem: string } {
  const keyPem = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  }).privateKey;
  const key = forge.pki.privateKeyFromPem(keyPem);
  const csr = forge.pki.createCertificationRequest();
  csr.publicKey = forge.pki.rsa.setPublicKey(key.n, key.e);
  csr.setSubject([
    { shortName: "CN", value: alias },
    { type: "2.5.4.5", value: `CUIT ${cuit}` },
  ]);
  csr.sign(key, forge.md.sha256.create());
  return { keyPem, csrPem: forge.pki.certificationRequestToPem(csr) };
}

export const newAccount = (): string => randomUUID();

let aliasCounter = 0;
/** Aliases are unique per test so the simulator's per-alias login counts stay apart. */
export const uniqueAlias = (name: string): string =>
  `${name}${process.pid}${Date.now().toString(36)}${aliasCounter++}`;
