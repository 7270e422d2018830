import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "@pasarela/admin";
import { startSimulator, type Simulator } from "@pasarela/authority-sim";
import type { Bus } from "@pasarela/bus";
import { ticket } from "@pasarela/contracts";
import { capturingLogger, fileInfra, type FileInfra } from "@pasarela/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient, newAccount, startInstance } from "./helpers.js";

const CUIT = "20111111112";
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

/** The issuer profile a printed voucher shows: ticket.perfil.* and the CLI. */
describe("ticket: the representada's issuer profile", () => {
  let infra: FileInfra;
  let sim: Simulator;
  let client: Bus;
  let dir: string;
  let stop: () => Promise<void>;
  const { logger } = capturingLogger("ticket");
  const accountId = newAccount();
  let representadaId: string;

  const get = (account: string, cuit = CUIT) =>
    client.request(ticket.perfilGet, { cuit, environment: "homologacion" }, { accountId: account });
  const cli = (...args: string[]) =>
    runCli(["representada", "profile", "--representada", representadaId, ...args], {
      NATS_URL: infra.natsUrl,
      NATS_PREFIX: infra.prefix,
    });

  beforeAll(async () => {
    infra = await fileInfra();
    sim = await startSimulator({ port: 0 });
    const instance = await startInstance(infra, sim, logger);
    stop = instance.stop;
    client = await connectClient(infra, logger);
    dir = await mkdtemp(join(tmpdir(), "perfil-test-"));
    const created = await client.request(ticket.representadaCreate, {
      accountId,
      cuit: CUIT,
      environment: "homologacion",
    });
    if (!created.ok) throw new Error(created.error.message);
    representadaId = created.value.representadaId;
  });

  afterAll(async () => {
    await client?.close();
    await stop?.();
    await sim?.close();
    await rm(dir, { recursive: true, force: true });
    await infra?.cleanup();
  });

  it("is null until set, then changes only the fields sent; '-' clears one", async () => {
    expect(await get(accountId)).toEqual({ ok: true, value: { perfil: null } });

    const set = await cli(
      "--razon-social",
      "Ñandú Diseño S.R.L.",
      "--domicilio",
      "Corrientes 1234 5° «B», CABA",
      "--condicion-iva",
      "IVA Responsable Inscripto",
      "--iibb",
      "901-123456-7",
      "--inicio-actividades",
      "20190301",
    );
    expect(set.exitCode, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout ?? "{}")).toEqual({
      representadaId,
      cuit: CUIT,
      environment: "homologacion",
      perfil: {
        razonSocial: "Ñandú Diseño S.R.L.",
        domicilioComercial: "Corrientes 1234 5° «B», CABA",
        condicionIva: "IVA Responsable Inscripto",
        ingresosBrutos: "901-123456-7",
        inicioActividades: "20190301",
        logo: null,
        email: null,
      },
    });

    const logoFile = join(dir, "logo.png");
    await writeFile(logoFile, PNG);
    const changed = await cli("--iibb", "-", "--logo", logoFile);
    expect(changed.exitCode, changed.stderr).toBe(0);
    // the logo is summarised on the terminal, never printed whole
    expect(JSON.parse(changed.stdout ?? "{}")).toMatchObject({
      perfil: {
        razonSocial: "Ñandú Diseño S.R.L.",
        ingresosBrutos: null,
        logo: { mediaType: "image/png", bytes: PNG.length },
      },
    });
    const read = await get(accountId);
    expect(read.ok && read.value.perfil).toEqual({
      razonSocial: "Ñandú Diseño S.R.L.",
      domicilioComercial: "Corrientes 1234 5° «B», CABA",
      condicionIva: "IVA Responsable Inscripto",
      ingresosBrutos: null,
      inicioActividades: "20190301",
      logo: { mediaType: "image/png", data: PNG.toString("base64") },
      email: null,
    });
  });

  it("refuses a logo that is not the PNG or JPEG it claims, or larger than 200 KB", async () => {
    const bogus = join(dir, "logo.jpg");
    await writeFile(bogus, PNG);
    const wrongType = await cli("--logo", bogus);
    expect(wrongType.exitCode).toBe(1);
    expect(JSON.parse(wrongType.stderr ?? "{}")).toEqual({
      error: "El logo debe ser una imagen PNG o JPEG de hasta 200 KB",
    });
    const gif = join(dir, "logo.gif");
    await writeFile(gif, "GIF89a");
    expect((await cli("--logo", gif)).exitCode).toBe(1);

    const large = Buffer.concat([PNG, Buffer.alloc(ticket.LOGO_MAX_BYTES)]);
    const tooLarge = await client.request(ticket.perfilSet, {
      representadaId,
      logo: { mediaType: "image/png", data: large.toString("base64") },
    });
    expect(!tooLarge.ok && tooLarge.error.code).toBe("LOGO_INVALID");
    // nothing changed
    const read = await get(accountId);
    expect(read.ok && read.value.perfil?.logo?.data).toBe(PNG.toString("base64"));
  });

  it("answers another account, and an unknown representada, like a stranger's CUIT", async () => {
    const stranger = await get(newAccount());
    expect(!stranger.ok && stranger.error.code).toBe("REPRESENTADA_NOT_FOUND");
    const unknown = await client.request(ticket.perfilSet, {
      representadaId: newAccount(),
      razonSocial: "x",
    });
    expect(!unknown.ok && unknown.error.code).toBe("REPRESENTADA_NOT_FOUND");
  });
});
