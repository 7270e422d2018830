import { startSimulator, type Simulator } from "@pasarela/authority-sim";
import type { Bus } from "@pasarela/bus";
import { ticket } from "@pasarela/contracts";
import { capturingLogger, fileInfra, type FileInfra } from "@pasarela/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient, newAccount, startInstance } from "./helpers.js";

const CUIT = "20111111112";
const UNAUTHORIZED = { ok: false, error: { code: "UNAUTHORIZED", message: "No autorizado" } };
const NOT_FOUND = {
  ok: false,
  error: { code: "REPRESENTADA_ID_NOT_FOUND", message: "Representada no encontrada" },
};

/** The account's own subjects act for the bus header's account and nothing else. */
describe("ticket: the account's own representadas", () => {
  let infra: FileInfra;
  let sim: Simulator;
  let client: Bus;
  let stop: () => Promise<void>;
  const { logger, lines } = capturingLogger("ticket");
  const owner = newAccount();
  const other = newAccount();
  let representadaId: string;

  beforeAll(async () => {
    infra = await fileInfra();
    sim = await startSimulator({ port: 0 });
    const instance = await startInstance(infra, sim, logger);
    stop = instance.stop;
    client = await connectClient(infra, logger);
    const created = await client.request(
      ticket.cuentaRepresentadaCreate,
      { cuit: CUIT, environment: "homologacion", ptoVta: 2 },
      { accountId: owner },
    );
    if (!created.ok) throw new Error(created.error.message);
    representadaId = created.value.representadaId;
  });

  afterAll(async () => {
    await client?.close();
    await stop?.();
    await sim?.close();
    await infra?.cleanup();
  });

  it("registers for the header's account, pending until the certificate arrives", async () => {
    const got = await client.request(
      ticket.cuentaRepresentadaGet,
      { representadaId },
      { accountId: owner },
    );
    expect(got).toMatchObject({
      ok: true,
      value: {
        cuit: CUIT,
        ptoVta: 2,
        certificado: { estado: "pendiente", notAfter: null },
        csr: expect.stringMatching(/^-----BEGIN CERTIFICATE REQUEST-----/) as string,
      },
    });
    // the operator's list sees it under the same account
    const operator = await client.request(ticket.representadaList, { accountId: owner });
    expect(operator.ok && operator.value.representadas.map((r) => r.representadaId)).toEqual([
      representadaId,
    ]);
  });

  it("finds nothing for another account, no account or a malformed id", async () => {
    const attempts = await Promise.all([
      client.request(ticket.cuentaRepresentadaGet, { representadaId }, { accountId: other }),
      client.request(
        ticket.cuentaRepresentadaGet,
        { representadaId: "no-es-un-id" },
        { accountId: owner },
      ),
      client.request(
        ticket.cuentaRepresentadaUpdate,
        { representadaId, ptoVta: 9 },
        { accountId: other },
      ),
      client.request(
        ticket.cuentaCertificadoCreate,
        { representadaId, certificate: "x" },
        { accountId: other },
      ),
      client.request(ticket.conexionVerify, { representadaId }, { accountId: other }),
    ]);
    for (const attempt of attempts) expect(attempt).toEqual(NOT_FOUND);
    // a request that names no account is refused by the bus: nothing is read or registered
    const anonymous = await Promise.all([
      client.request(ticket.cuentaRepresentadaGet, { representadaId }),
      client.request(ticket.cuentaRepresentadaCreate, {
        cuit: "20222222223",
        environment: "homologacion",
      }),
      client.request(ticket.cuentaRepresentadaList, {}),
    ]);
    for (const attempt of anonymous) expect(attempt).toEqual(UNAUTHORIZED);
    expect(await client.request(ticket.cuentaRepresentadaList, {}, { accountId: other })).toEqual({
      ok: true,
      value: { representadas: [] },
    });
  });

  it("never logs the CSR or the key", () => {
    const text = lines.join("\n");
    expect(text).not.toContain("BEGIN CERTIFICATE REQUEST");
    expect(text).not.toContain("PRIVATE KEY");
  });
});
