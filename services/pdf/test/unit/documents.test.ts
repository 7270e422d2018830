import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import type { Bus } from "@pasarela/bus";
import { padron, ticket, wsfe, type Contract } from "@pasarela/contracts";
import { appError, fail, ok, type Result } from "@pasarela/errors";
import { createLogger } from "@pasarela/telemetry";
import { describe, expect, it } from "vitest";
import { loadFonts } from "../../src/adapters/fonts.js";
import type { PdfStore } from "../../src/adapters/storage.js";
import type { ComprobanteRef } from "../../src/domain/comprobante-ref.js";
import type { EmisoresRepository } from "../../src/db/repositories/emisores.js";
import { makeDocuments } from "../../src/flows/documents.js";
import { makeEmisores } from "../../src/flows/emisores.js";

const ref = {
  environment: "homologacion" as const,
  representada: "20111111112",
  ptoVta: 3,
  cbteTipo: 11,
  cbteNro: 5,
};

const emitido: wsfe.Emitido = {
  state: "authorized",
  tipoAutorizacion: "CAE",
  environment: "homologacion",
  cuit: "20111111112",
  ptoVta: 3,
  cbteTipo: 11,
  cbteNro: 5,
  concepto: 1,
  cbteFch: "20261120",
  receptor: { docTipo: 99, docNro: "0", condicionIvaReceptorId: 5 },
  items: [
    {
      descripcion: "Mate",
      cantidad: "1",
      precioUnitario: "300",
      alicuotaIva: "0",
      bonificacion: "0",
      importe: "300.00",
    },
  ],
  iva: [],
  tributos: [],
  totales: {
    impTotal: "300.00",
    impNeto: "300.00",
    impIVA: "0.00",
    impTrib: "0.00",
    impTotConc: "0.00",
    impOpEx: "0.00",
  },
  moneda: { id: "PES", cotizacion: "1" },
  comprobantesAsociados: [],
  opcionales: [],
  cae: "70417054367476",
  caeVencimiento: "20261130",
  qr: "https://www.afip.gob.ar/fe/qr/?p=eyJ2ZXIiOjF9",
  // issued before vouchers kept their issuer
  emisor: null,
};

const perfil: ticket.Perfil = {
  razonSocial: "Kiosco",
  domicilioComercial: "Mitre 1",
  condicionIva: "Responsable Monotributo",
  ingresosBrutos: null,
  inicioActividades: null,
  logo: null,
  email: null,
};

/** The same issuer, as a voucher issued with that profile keeps it. */
const emisor: ticket.Emisor = {
  razonSocial: "Kiosco",
  domicilioComercial: "Mitre 1",
  condicionIva: "Responsable Monotributo",
  ingresosBrutos: null,
  inicioActividades: null,
  logo: null,
};

/** A bus whose answers the test decides, per subject; unit tests may fake our services. */
function fakeBus(answers: Record<string, () => Result<unknown>>): Pick<Bus, "request"> {
  return {
    request: <C extends Contract>(contract: C) =>
      Promise.resolve(
        (answers[contract.subject]?.() ?? fail(appError("SERVICE_UNAVAILABLE"))) as never,
      ),
  };
}

function memoryStore(): PdfStore & { files: Map<string, Buffer> } {
  const files = new Map<string, Buffer>();
  return {
    files,
    read: (key) => Promise.resolve(files.get(key)),
    write: (key, bytes) => Promise.resolve(void files.set(key, bytes)),
  };
}

/** The issuers fixed so far, in memory: unit tests may fake our own repositories. */
function memoryEmisores(): EmisoresRepository & { fixed: Map<string, ticket.Emisor> } {
  const fixed = new Map<string, ticket.Emisor>();
  const key = (accountId: string, r: ComprobanteRef) => `${accountId}|${JSON.stringify(r)}`;
  return {
    fixed,
    find: (accountId, r) => Promise.resolve(fixed.get(key(accountId, r))),
    fix: (accountId, r, emisor) => {
      if (!fixed.has(key(accountId, r))) fixed.set(key(accountId, r), emisor);
      return Promise.resolve(fixed.get(key(accountId, r))!);
    },
  };
}

function makeDocs(deps: {
  bus: Pick<Bus, "request">;
  store?: PdfStore;
  emisores?: EmisoresRepository;
}) {
  return makeDocuments({
    bus: deps.bus,
    store: deps.store ?? memoryStore(),
    fonts: loadFonts(),
    emisores: makeEmisores({ bus: deps.bus, emisores: deps.emisores ?? memoryEmisores() }),
  });
}

/** The text of a base64 PDF, as pdftotext reads it. */
function textOf(pdf: string): string {
  const dir = mkdtempSync(join(tmpdir(), "pdf-text-"));
  try {
    const file = join(dir, "c.pdf");
    writeFileSync(file, Buffer.from(pdf, "base64"));
    return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const ctx = {
  requestId: "r",
  deadline: undefined,
  logger: createLogger({ service: "test", level: "silent" }),
};

describe("pdf: documents", () => {
  it("does not store a print made while ticket could not be asked; stores the next one", async () => {
    const store = memoryStore();
    let ticketUp = false;
    const documents = makeDocs({
      store,
      bus: fakeBus({
        [wsfe.emitidoGet.subject]: () => ok(emitido),
        [ticket.perfilGet.subject]: () =>
          ticketUp ? ok({ perfil }) : fail(appError("SERVICE_UNAVAILABLE")),
        [padron.constanciaGet.subject]: () => fail(appError("SERVICE_UNAVAILABLE")),
      }),
    });
    const first = await documents.document("acc", ref, "original", ctx);
    expect(first.ok).toBe(true);
    expect(store.files.size).toBe(0);
    ticketUp = true;
    const second = await documents.document("acc", ref, "original", ctx);
    expect(second.ok && second.value.filename).toBe("20111111112_011_00003-00000005.pdf");
    expect([...store.files.keys()]).toEqual([
      "v2/acc/homologacion/20111111112/3/11/5-original.pdf",
    ]);
    expect(second.ok && second.value.pdf).not.toBe(first.ok && first.value.pdf);
  });

  it("stores a print without a profile when the representada has none", async () => {
    const store = memoryStore();
    const documents = makeDocs({
      store,
      bus: fakeBus({
        [wsfe.emitidoGet.subject]: () => ok(emitido),
        [ticket.perfilGet.subject]: () => ok({ perfil: null }),
      }),
    });
    expect((await documents.document("acc", ref, "todas", ctx)).ok).toBe(true);
    expect([...store.files.keys()]).toEqual(["v2/acc/homologacion/20111111112/3/11/5-todas.pdf"]);
  });

  it("answers 422 for a rejected voucher and passes wsfe's 404 on", async () => {
    const rejected = makeDocs({
      bus: fakeBus({ [wsfe.emitidoGet.subject]: () => ok({ ...emitido, state: "rejected" }) }),
    });
    const answer = await rejected.document("acc", ref, "original", ctx);
    expect(!answer.ok && answer.error.code).toBe("COMPROBANTE_RECHAZADO");
    const missing = makeDocs({
      bus: fakeBus({ [wsfe.emitidoGet.subject]: () => fail(appError("COMPROBANTE_NOT_FOUND")) }),
    });
    const notFound = await missing.document("acc", ref, "original", ctx);
    expect(!notFound.ok && notFound.error.code).toBe("COMPROBANTE_NOT_FOUND");
  });

  it("prints a voucher issued under a CAEA as such while it waits to be informed, and not once refused", async () => {
    const caea: wsfe.Emitido = {
      ...emitido,
      state: "caea_pendiente",
      tipoAutorizacion: "CAEA",
      cae: "37471234567890",
      caeVencimiento: "20261215",
      caea: "37471234567890",
      caeaVencimiento: "20261215",
    };
    const pending = makeDocs({
      bus: fakeBus({
        [wsfe.emitidoGet.subject]: () => ok(caea),
        [ticket.perfilGet.subject]: () => ok({ perfil }),
      }),
    });
    const printed = await pending.document("acc", ref, "original", ctx);
    if (!printed.ok) throw new Error(printed.error.message);
    const text = textOf(printed.value.pdf).replace(/[ \t]+/g, " ");
    expect(text).toMatch(/CAEA N°:? 37471234567890/);
    expect(text).toMatch(/Fecha de Vto\. de CAEA:? 15\/12\/2026/);
    expect(text).not.toMatch(/CAE N°|de CAE\b/);
    // a CAE voucher keeps its labels
    const cae = await makeDocs({
      bus: fakeBus({
        [wsfe.emitidoGet.subject]: () => ok(emitido),
        [ticket.perfilGet.subject]: () => ok({ perfil }),
      }),
    }).document("acc", ref, "original", ctx);
    if (!cae.ok) throw new Error(cae.error.message);
    const caeText = textOf(cae.value.pdf).replace(/[ \t]+/g, " ");
    expect(caeText).toMatch(/CAE N°:? 70417054367476/);
    expect(caeText).toMatch(/Fecha de Vto\. de CAE:? 30\/11\/2026/);
    expect(caeText).not.toContain("CAEA");
    const refused = makeDocs({
      bus: fakeBus({
        [wsfe.emitidoGet.subject]: () =>
          ok({ ...caea, state: "caea_rechazado", qr: null, rechazo: [{ code: 10016, msg: "x" }] }),
      }),
    });
    const answer = await refused.document("acc", ref, "original", ctx);
    expect(!answer.ok && answer.error.code).toBe("COMPROBANTE_RECHAZADO");
  });

  it("asks the registry once per issuer, not on every print", async () => {
    let asked = 0;
    const documents = makeDocs({
      bus: fakeBus({
        [wsfe.emitidoGet.subject]: () => ok(emitido),
        [ticket.perfilGet.subject]: () => ok({ perfil: null }),
        [padron.constanciaGet.subject]: () => {
          asked += 1;
          return fail(appError("SERVICE_NOT_DELEGATED"));
        },
      }),
    });
    for (const cbteNro of [5, 6, 7]) {
      expect((await documents.document("acc", { ...ref, cbteNro }, "original", ctx)).ok).toBe(true);
    }
    expect(asked).toBe(1);
  });

  it("prints the issuer copied at issuance, fixed at the first print, whatever the profile says later", async () => {
    const emisores = memoryEmisores();
    let now: ticket.Perfil = { ...perfil, razonSocial: "Kiosco Nuevo" };
    const bus = fakeBus({
      [wsfe.emitidoGet.subject]: () => ok({ ...emitido, emisor }),
      [ticket.perfilGet.subject]: () => ok({ perfil: now }),
    });
    const documents = makeDocs({ bus, emisores });
    const original = await documents.document("acc", ref, "original", ctx);
    now = { ...now, razonSocial: "Otro Kiosco" };
    const duplicado = await documents.document("acc", ref, "duplicado", ctx);
    for (const answer of [original, duplicado]) {
      expect(answer.ok && textOf(answer.value.pdf)).toContain("Razón Social: Kiosco\n");
    }
  });

  it("fixes the profile of a voucher issued without one at its first print", async () => {
    const emisores = memoryEmisores();
    let now: ticket.Perfil = { ...perfil, razonSocial: "Primera" };
    const bus = fakeBus({
      [wsfe.emitidoGet.subject]: () => ok(emitido),
      [ticket.perfilGet.subject]: () => ok({ perfil: now }),
    });
    const documents = makeDocs({ bus, emisores });
    const original = await documents.document("acc", ref, "original", ctx);
    now = { ...now, razonSocial: "Segunda" };
    const todas = await documents.document("acc", ref, "todas", ctx);
    expect(original.ok && textOf(original.value.pdf)).toContain("Razón Social: Primera");
    const copies = todas.ok ? textOf(todas.value.pdf) : "";
    expect(copies.match(/Razón Social: Primera/g)).toHaveLength(3);
    expect(copies).not.toContain("Segunda");
    expect([...emisores.fixed.values()].map((e) => e.razonSocial)).toEqual(["Primera"]);
  });

  it("prints and stores without a logo that does not decode, warning with the representada", async () => {
    const store = memoryStore();
    const corrupt = Buffer.from("iVBORw0KGgo=", "base64");
    const sha256 = createHash("sha256").update(corrupt).digest("hex");
    const lines: string[] = [];
    const logger = createLogger({
      service: "test",
      level: "warn",
      destination: new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    });
    const documents = makeDocs({
      store,
      bus: fakeBus({
        [wsfe.emitidoGet.subject]: () =>
          ok({
            ...emitido,
            emisor: {
              ...emisor,
              logo: { mediaType: "image/png" as const, sha256 },
            },
          }),
        [ticket.logoGet.subject]: () =>
          ok({
            representadaId: "9f1c1b0e-1111-4222-8333-444455556666",
            logo: { mediaType: "image/png" as const, data: corrupt.toString("base64") },
          }),
      }),
    });
    const printed = await documents.document("acc", ref, "original", { ...ctx, logger });
    expect(printed.ok && textOf(printed.value.pdf)).toContain("Razón Social: Kiosco");
    expect(store.files.size).toBe(1);
    const warned = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(warned).toContainEqual(
      expect.objectContaining({
        level: "warn",
        representada: ref.representada,
        representadaId: "9f1c1b0e-1111-4222-8333-444455556666",
        logo: sha256,
      }),
    );
  });

  it("prints without the logo while ticket cannot give it, and stores nothing", async () => {
    const store = memoryStore();
    const documents = makeDocs({
      store,
      bus: fakeBus({
        [wsfe.emitidoGet.subject]: () =>
          ok({
            ...emitido,
            emisor: {
              ...emisor,
              logo: { mediaType: "image/png" as const, sha256: "a".repeat(64) },
            },
          }),
      }),
    });
    expect((await documents.document("acc", ref, "original", ctx)).ok).toBe(true);
    expect(store.files.size).toBe(0);
  });
});
