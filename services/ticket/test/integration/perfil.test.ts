import { createHash } from "node:crypto";
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
/** A real 1 × 1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);
/** Only the signature a PNG starts with: nothing to print. */
const PNG_SIGNATURE_ONLY = PNG.subarray(0, 8);
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

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

  it("refuses a logo that is not the PNG or JPEG it claims, does not decode, or is too large", async () => {
    const bogus = join(dir, "logo.jpg");
    await writeFile(bogus, PNG);
    const wrongType = await cli("--logo", bogus);
    expect(wrongType.exitCode).toBe(1);
    expect(JSON.parse(wrongType.stderr ?? "{}")).toEqual({
      error:
        "El logo debe ser una imagen PNG o JPEG de hasta 200 KB y de hasta 1000 × 1000 píxeles: el archivo es una imagen PNG pero se declaró image/jpeg",
    });
    const gif = join(dir, "logo.gif");
    await writeFile(gif, "GIF89a");
    expect((await cli("--logo", gif)).exitCode).toBe(1);
    // a file that only starts like a PNG: the printer could never embed it
    const fake = join(dir, "fake.png");
    await writeFile(fake, PNG_SIGNATURE_ONLY);
    const undecodable = await cli("--logo", fake);
    expect(undecodable.exitCode).toBe(1);
    expect(JSON.parse(undecodable.stderr ?? "{}")).toEqual({
      error:
        "El logo debe ser una imagen PNG o JPEG de hasta 200 KB y de hasta 1000 × 1000 píxeles: el archivo no tiene un encabezado PNG válido",
    });
    const onBus = await client.request(ticket.perfilSet, {
      representadaId,
      logo: { mediaType: "image/png", data: PNG_SIGNATURE_ONLY.toString("base64") },
    });
    expect(!onBus.ok && onBus.error).toMatchObject({
      code: "LOGO_INVALID",
      details: { field: "logo", problem: "no tiene un encabezado PNG válido" },
    });

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

  it("copies the profile for issuance by the logo's name, and keeps every logo it had", async () => {
    const emisorNow = async () => {
      const found = await client.request(
        ticket.representadaGet,
        { cuit: CUIT, environment: "homologacion" },
        { accountId },
      );
      if (!found.ok) throw new Error(found.error.message);
      return found.value.emisor;
    };
    const first = await emisorNow();
    expect(first).toMatchObject({
      razonSocial: "Ñandú Diseño S.R.L.",
      logo: { mediaType: "image/png", sha256: sha256(PNG) },
    });
    // another logo replaces it in the profile; the first is still answered by its name
    const other = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAAAAADRSSBWAAAAC0lEQVR4AWM8ygAAAZAAx1hEVdoAAAAASUVORK5CYII=",
      "base64",
    );
    const replaced = await client.request(ticket.perfilSet, {
      representadaId,
      logo: { mediaType: "image/png", data: other.toString("base64") },
    });
    expect(replaced.ok, JSON.stringify(replaced)).toBe(true);
    expect((await emisorNow()).logo?.sha256).toBe(sha256(other));
    const logoOf = (digest: string, account = accountId) =>
      client.request(
        ticket.logoGet,
        { cuit: CUIT, environment: "homologacion", sha256: digest },
        { accountId: account },
      );
    const kept = await logoOf(sha256(PNG));
    expect(kept.ok && kept.value).toEqual({
      representadaId,
      logo: { mediaType: "image/png", data: PNG.toString("base64") },
    });
    const never = await logoOf("0".repeat(64));
    expect(never.ok && never.value.logo).toBeNull();
    const stranger = await logoOf(sha256(PNG), newAccount());
    expect(!stranger.ok && stranger.error.code).toBe("REPRESENTADA_NOT_FOUND");
  });
});
