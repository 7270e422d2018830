import { randomUUID } from "node:crypto";
import type { ticket } from "@pasarela/contracts";
import { openDatabase, type Database } from "@pasarela/db";
import { fileInfra, type FileInfra } from "@pasarela/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PdfDatabase } from "../src/db/database.js";
import { schema } from "../src/db/migrations/index.js";
import { makeEmisoresRepository } from "../src/db/repositories/emisores.js";

const ref = {
  environment: "homologacion" as const,
  representada: "20111111112",
  ptoVta: 3,
  cbteTipo: 11,
  cbteNro: 9_000_000_001,
};

const emisor = (razonSocial: string): ticket.Emisor => ({
  razonSocial,
  domicilioComercial: "Mitre 1",
  condicionIva: null,
  ingresosBrutos: null,
  inicioActividades: "20190301",
  logo: { mediaType: "image/png", sha256: "ab".repeat(32) },
});

describe("pdf: the issuer fixed for each voucher", () => {
  let infra: FileInfra;
  let database: Database<PdfDatabase>;

  beforeAll(async () => {
    infra = await fileInfra();
    database = openDatabase<PdfDatabase>({ url: infra.databaseUrl, schema, poolSize: 4 });
  });

  afterAll(async () => {
    await database?.close();
    await infra?.cleanup();
  });

  it("keeps the first issuer fixed, also when two first prints race, and per account", async () => {
    const emisores = makeEmisoresRepository(database.db);
    const account = randomUUID();
    expect(await emisores.find(account, ref)).toBeUndefined();
    const [one, two] = await Promise.all([
      emisores.fix(account, ref, emisor("Primera")),
      emisores.fix(account, ref, emisor("Segunda")),
    ]);
    expect(one).toEqual(two);
    expect(await emisores.fix(account, ref, emisor("Tercera"))).toEqual(one);
    expect(await emisores.find(account, ref)).toEqual(one);
    expect(["Primera", "Segunda"]).toContain(one.razonSocial);
    // the same numbers in another account, or the next number, are another voucher
    expect(await emisores.find(randomUUID(), ref)).toBeUndefined();
    expect(await emisores.find(account, { ...ref, cbteNro: ref.cbteNro + 1 })).toBeUndefined();
  });
});
