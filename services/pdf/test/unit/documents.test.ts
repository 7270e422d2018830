import type { Bus } from "@pasarela/bus";
import { padron, ticket, wsfe, type Contract } from "@pasarela/contracts";
import { appError, fail, ok, type Result } from "@pasarela/errors";
import { createLogger } from "@pasarela/telemetry";
import { describe, expect, it } from "vitest";
import { loadFonts } from "../../src/adapters/fonts.js";
import type { PdfStore } from "../../src/adapters/storage.js";
import { makeDocuments } from "../../src/documents.js";

const ref = {
  environment: "homologacion" as const,
  representada: "20111111112",
  ptoVta: 3,
  cbteTipo: 11,
  cbteNro: 5,
};

const emitido: wsfe.Emitido = {
  state: "authorized",
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

const ctx = {
  requestId: "r",
  deadline: undefined,
  logger: createLogger({ service: "test", level: "silent" }),
};

describe("pdf: documents", () => {
  it("does not store a print made while ticket could not be asked; stores the next one", async () => {
    const store = memoryStore();
    let ticketUp = false;
    const documents = makeDocuments({
      store,
      fonts: loadFonts(),
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
    expect([...store.files.keys()]).toEqual(["acc/homologacion/20111111112/3/11/5-original.pdf"]);
    expect(second.ok && second.value.pdf).not.toBe(first.ok && first.value.pdf);
  });

  it("stores a print without a profile when the representada has none", async () => {
    const store = memoryStore();
    const documents = makeDocuments({
      store,
      fonts: loadFonts(),
      bus: fakeBus({
        [wsfe.emitidoGet.subject]: () => ok(emitido),
        [ticket.perfilGet.subject]: () => ok({ perfil: null }),
      }),
    });
    expect((await documents.document("acc", ref, "todas", ctx)).ok).toBe(true);
    expect([...store.files.keys()]).toEqual(["acc/homologacion/20111111112/3/11/5-todas.pdf"]);
  });

  it("answers 422 for a rejected voucher and passes wsfe's 404 on", async () => {
    const rejected = makeDocuments({
      store: memoryStore(),
      fonts: loadFonts(),
      bus: fakeBus({ [wsfe.emitidoGet.subject]: () => ok({ ...emitido, state: "rejected" }) }),
    });
    const answer = await rejected.document("acc", ref, "original", ctx);
    expect(!answer.ok && answer.error.code).toBe("COMPROBANTE_RECHAZADO");
    const missing = makeDocuments({
      store: memoryStore(),
      fonts: loadFonts(),
      bus: fakeBus({ [wsfe.emitidoGet.subject]: () => fail(appError("COMPROBANTE_NOT_FOUND")) }),
    });
    const notFound = await missing.document("acc", ref, "original", ctx);
    expect(!notFound.ok && notFound.error.code).toBe("COMPROBANTE_NOT_FOUND");
  });

  it("asks the registry once per issuer, not on every print", async () => {
    let asked = 0;
    const documents = makeDocuments({
      store: memoryStore(),
      fonts: loadFonts(),
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
});
