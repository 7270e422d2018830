import { X509Certificate } from "node:crypto";
import {
  makeControlClient,
  startSimulator,
  type ControlClient,
  type Simulator,
} from "@pasarela/authority-sim";
import { consumeDurable, done, type Bus, type Durable } from "@pasarela/bus";
import { ticket, type EventOf } from "@pasarela/contracts";
import { capturingLogger, fileInfra, type FileInfra } from "@pasarela/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient, newAccount, startInstance, uniqueAlias } from "./helpers.js";

const DAY = 86_400_000;
const CUIT = "20111111112";

type Aviso =
  EventOf<typeof ticket.certificadoPorVencer> | EventOf<typeof ticket.certificadoVencido>;

/**
 * The expiry check against real NATS and PostgreSQL, two instances sharing the database and
 * the clock the test moves: each threshold of a certificate is announced once, whichever
 * instance checks and however often.
 */
describe("ticket: certificate expiry notices", () => {
  let infra: FileInfra;
  let sim: Simulator;
  let control: ControlClient;
  let client: Bus;
  let durable: Durable;
  let clock = Date.now();
  const instances: { stop: () => Promise<void>; deps: { checkExpiry: () => Promise<void> } }[] = [];
  const { logger } = capturingLogger("ticket");
  const heard: { subject: string; event: Aviso }[] = [];

  beforeAll(async () => {
    infra = await fileInfra();
    sim = await startSimulator({ port: 0 });
    control = makeControlClient(sim.url);
    for (let i = 0; i < 2; i++) {
      instances.push(await startInstance(infra, sim, logger, { now: () => new Date(clock) }));
    }
    client = await connectClient(infra, logger);
    // read from the stream, as the webhooks service does: a notice two instances published at
    // once is stored once (its id is the msgID)
    durable = await consumeDurable(
      client,
      [ticket.certificadoPorVencer, ticket.certificadoVencido],
      {
        durable: "test-avisos",
        logger,
        maxBatch: 50,
        handle: (batch) => {
          for (const { contract, body } of batch)
            heard.push({ subject: contract.subject, event: body });
          return Promise.resolve(done);
        },
      },
    );
  });

  afterAll(async () => {
    await durable?.stop();
    await client?.close();
    for (const instance of instances) await instance.stop();
    await sim?.close();
    await infra?.cleanup();
  });

  async function uploaded() {
    const accountId = newAccount();
    const created = await client.request(ticket.representadaCreate, {
      accountId,
      cuit: CUIT,
      environment: "homologacion",
      alias: uniqueAlias("aviso"),
    });
    if (!created.ok) throw new Error(created.error.message);
    const certificate = await control.issueCertificate("homologacion", created.value.csr);
    const answer = await client.request(ticket.certificateCreate, {
      representadaId: created.value.representadaId,
      certificate,
    });
    if (!answer.ok) throw new Error(answer.error.message);
    return {
      accountId,
      ...created.value,
      certificate,
      notAfter: Date.parse(answer.value.notAfter),
    };
  }

  /** both instances check at once, twice */
  async function checkEverywhere() {
    for (let i = 0; i < 2; i++) {
      await Promise.all(instances.map((instance) => instance.deps.checkExpiry()));
    }
    await new Promise((resolve) => setTimeout(resolve, 1_500));
  }
  const of = (accountId: string) => heard.filter((h) => h.event.accountId === accountId);

  it("announces 30, 7 and 1 days before notAfter and the expiry, each once", async () => {
    const cert = await uploaded();
    const x509 = new X509Certificate(cert.certificate);
    await checkEverywhere();
    expect(of(cert.accountId)).toEqual([]);

    clock = cert.notAfter - 20 * DAY;
    await checkEverywhere();
    expect(of(cert.accountId)).toHaveLength(1);
    expect(of(cert.accountId)[0]).toEqual({
      subject: "evt.ticket.certificado.por_vencer",
      event: {
        id: expect.stringMatching(/:por_vencer:30$/) as string,
        version: 1,
        certificateId: expect.any(String) as string,
        representadaId: cert.representadaId,
        accountId: cert.accountId,
        cuit: CUIT,
        environment: "homologacion",
        serialNumber: x509.serialNumber.toUpperCase(),
        fingerprint: x509.fingerprint256.replaceAll(":", "").toLowerCase(),
        notAfter: new Date(cert.notAfter).toISOString(),
        diasRestantes: 20,
        umbral: 30,
        occurredAt: new Date(clock).toISOString(),
      },
    });

    clock = cert.notAfter - 6.5 * DAY;
    await checkEverywhere();
    clock = cert.notAfter - 3 * DAY;
    await checkEverywhere();
    clock = cert.notAfter - 12 * 3_600_000;
    await checkEverywhere();
    clock = cert.notAfter + 3_600_000;
    await checkEverywhere();
    clock = cert.notAfter + 10 * DAY;
    await checkEverywhere();
    const avisos = of(cert.accountId).map((h) => h.event);
    expect(avisos.map((a) => ("umbral" in a ? a.umbral : "vencido"))).toEqual([
      30,
      7,
      1,
      "vencido",
    ]);
    expect(avisos.map((a) => a.diasRestantes)).toEqual([20, 6, 0, 0]);
    expect(new Set(avisos.map((a) => a.id)).size).toBe(4);
  });

  it("a certificate first seen 5 days before its end announces 7 days only", async () => {
    clock = Date.now();
    const cert = await uploaded();
    clock = cert.notAfter - 5 * DAY;
    await checkEverywhere();
    const avisos = of(cert.accountId).map((h) => h.event);
    expect(avisos.map((a) => ("umbral" in a ? a.umbral : "vencido"))).toEqual([7]);
    expect(avisos[0]!.diasRestantes).toBe(5);
  });
});
