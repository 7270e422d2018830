import { randomBytes, randomUUID } from "node:crypto";
import type { AccountContext } from "@pasarela/bus";
import { wsfe } from "@pasarela/contracts";
import { makePageCursors } from "@pasarela/sealing";
import { capturingLogger } from "@pasarela/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CaeaEstado } from "../../src/db/database.js";
import { makeComprobantesListadoRepository } from "../../src/db/repositories/comprobantes-listado.js";
import type { SeriesKey } from "../../src/db/repositories/series.js";
import { makeComprobanteList } from "../../src/handlers/comprobante-list.js";
import { makeEmitidoGet } from "../../src/handlers/emitido-get.js";
import { openWsfeStore, voucher, type WsfeStore } from "./fixture.js";

const CAE = "71263951827464";
const CAEA = "37471234567890";
const accountId = randomUUID();
const series: SeriesKey = {
  environment: "homologacion",
  cuit: "20111111112",
  ptoVta: 90,
  cbteTipo: 11,
};

/** A voucher C to a final consumer as it is stored once resolved, for `wsfe.emitido.get`. */
const prepared = {
  cbteTipo: 11,
  clase: "C",
  concepto: 1,
  cbteFch: "20261201",
  receptor: { docTipo: 99, docNro: "0", condicionIvaReceptorId: 5 },
  items: [
    {
      descripcion: "Servicio",
      cantidad: "1",
      precioUnitario: "121.00",
      alicuotaIva: "no_gravado",
      bonificacion: "0",
      importe: "121.00",
    },
  ],
  iva: [],
  tributos: [],
  comprobantesAsociados: [],
  opcionales: [],
};

const ctx = (subject: string): AccountContext => ({
  accountId,
  requestId: randomUUID(),
  subject,
  deadline: undefined,
  logger: capturingLogger("wsfe").logger,
});

/** The JSON of the RG 4892 QR a URL carries. */
const qrData = (url: string | null) =>
  JSON.parse(Buffer.from(url?.split("?p=")[1] ?? "", "base64").toString("utf8")) as Record<
    string,
    unknown
  >;

describe("reading vouchers issued in contingency (PostgreSQL)", () => {
  let store: WsfeStore;
  const ids: Record<"cae" | "pendiente" | "informado" | "rechazado" | "intento", string> = {
    cae: "",
    pendiente: "",
    informado: "",
    rechazado: "",
    intento: "",
  };

  /** Stores a voucher as issuance leaves it under the fortnight's CAEA, informed as `estado`. */
  async function storeCaea(cbteNro: number, estado: CaeaEstado): Promise<string> {
    const v = voucher(series, cbteNro, { accountId, request: prepared });
    await store.comprobantes.insertPending([v]);
    await store.db
      .updateTable("comprobantes")
      .set({
        state: estado === "rechazado" ? "caea_rechazado" : "authorized",
        resultado: "A",
        cae: CAEA,
        cae_vencimiento: "20261215",
        tipo_autorizacion: "CAEA",
        caea_estado: estado,
        caea_periodo: 202612,
        caea_orden: 1,
        cbte_fch_hs_gen: "20261201103000",
        caea_informado_at: estado === "informado" ? "2026-12-16T13:00:00.000Z" : null,
        errores:
          estado === "rechazado"
            ? [{ code: 10016, msg: "El numero de comprobante no es correlativo" }]
            : [],
        observaciones: estado === "rechazado" ? [{ code: 10217, msg: "Observado" }] : [],
      })
      .where("id", "=", v.id)
      .execute();
    return v.id;
  }

  beforeAll(async () => {
    store = await openWsfeStore();
    const intento = voucher(series, 1, { accountId, request: prepared });
    await store.comprobantes.insertPending([intento]);
    await store.comprobantes.markRejected(intento.id, {
      observaciones: [],
      errores: [{ code: 10048, msg: "rechazado" }],
      eventos: [],
    });
    ids.intento = intento.id;
    const cae = voucher(series, 1, { accountId, request: prepared });
    await store.comprobantes.insertPending([cae]);
    await store.comprobantes.markAuthorized(cae.id, {
      cae: CAE,
      caeVencimiento: "20261211",
      observaciones: [],
      eventos: [],
    });
    ids.cae = cae.id;
    ids.pendiente = await storeCaea(2, "pendiente");
    ids.informado = await storeCaea(3, "informado");
    ids.rechazado = await storeCaea(4, "rechazado");
  });

  afterAll(async () => {
    await store?.close();
  });

  const list = (filters: { state?: wsfe.ComprobanteListItem["state"] } = {}) =>
    makeComprobanteList({
      listado: makeComprobantesListadoRepository(store.db),
      cursors: makePageCursors(randomBytes(32).toString("base64")),
    })({ environment: "homologacion", limit: 10, ...filters }, ctx(wsfe.comprobanteList.subject));

  const emitido = (cbteNro: number) =>
    makeEmitidoGet({ comprobantes: store.comprobantes })(
      { environment: "homologacion", representada: series.cuit, ptoVta: 90, cbteTipo: 11, cbteNro },
      ctx(wsfe.emitidoGet.subject),
    );

  it("lists each voucher with its kind of authorization and a CAEA one by its informing", async () => {
    const page = await list();
    if (!page.ok) throw new Error(page.error.message);
    expect(wsfe.comprobanteList.reply.safeParse(page.value).success).toBe(true);
    const byId = new Map(page.value.items.map((i) => [i.id, i]));
    expect(page.value.items).toHaveLength(5);
    // a CAE voucher answers what it did before, with tipoAutorizacion added
    expect(Object.keys(byId.get(ids.cae) ?? {}).sort()).toEqual(
      [
        "id",
        "state",
        "environment",
        "representada",
        "ptoVta",
        "cbteTipo",
        "cbteNro",
        "cbteFch",
        "receptor",
        "impTotal",
        "moneda",
        "cae",
        "caeVencimiento",
        "tipoAutorizacion",
        "email",
        "createdAt",
      ].sort(),
    );
    expect(byId.get(ids.cae)).toMatchObject({
      state: "authorized",
      tipoAutorizacion: "CAE",
      cae: CAE,
    });
    expect(byId.get(ids.intento)).toMatchObject({
      state: "rejected",
      tipoAutorizacion: "CAE",
      rechazo: [{ code: 10048, msg: "rechazado" }],
    });
    expect(byId.get(ids.pendiente)).toEqual(
      expect.objectContaining({
        state: "caea_pendiente",
        tipoAutorizacion: "CAEA",
        cae: CAEA,
        caeVencimiento: "20261215",
        caea: CAEA,
        caeaVencimiento: "20261215",
      }),
    );
    expect(byId.get(ids.pendiente)).not.toHaveProperty("caeaInformadoAt");
    expect(byId.get(ids.informado)).toMatchObject({
      state: "authorized",
      tipoAutorizacion: "CAEA",
      caeaInformadoAt: "2026-12-16T13:00:00.000Z",
    });
    expect(byId.get(ids.rechazado)).toMatchObject({
      state: "caea_rechazado",
      tipoAutorizacion: "CAEA",
      rechazo: [
        { code: 10016, msg: "El numero de comprobante no es correlativo" },
        { code: 10217, msg: "Observado" },
      ],
    });
  });

  it("filters by the informing: pending, refused, and authorized as the CAE and the informed ones", async () => {
    const idsOf = async (state: wsfe.ComprobanteListItem["state"]) => {
      const page = await list({ state });
      if (!page.ok) throw new Error(page.error.message);
      return page.value.items.map((i) => i.id).sort();
    };
    expect(await idsOf("caea_pendiente")).toEqual([ids.pendiente]);
    expect(await idsOf("caea_rechazado")).toEqual([ids.rechazado]);
    expect(await idsOf("authorized")).toEqual([ids.cae, ids.informado].sort());
    expect(await idsOf("rejected")).toEqual([ids.intento]);
    expect(await idsOf("pending")).toEqual([]);
  });

  it("reads a CAEA voucher back with its informing, and its QR says tipoCodAut A", async () => {
    const cae = await emitido(1);
    const pendiente = await emitido(2);
    const informado = await emitido(3);
    const rechazado = await emitido(4);
    if (!cae.ok || !pendiente.ok || !informado.ok || !rechazado.ok) throw new Error("not found");
    for (const e of [cae, pendiente, informado, rechazado]) {
      expect(wsfe.emitidoSchema.strict().safeParse(e.value).success).toBe(true);
    }
    // the number given back by the rejected attempt reads as the authorized voucher
    expect(cae.value).toMatchObject({ state: "authorized", tipoAutorizacion: "CAE", cae: CAE });
    expect(cae.value).not.toHaveProperty("caea");
    expect(qrData(cae.value.qr)).toMatchObject({ tipoCodAut: "E", codAut: Number(CAE) });
    expect(pendiente.value).toMatchObject({
      state: "caea_pendiente",
      tipoAutorizacion: "CAEA",
      cae: CAEA,
      caea: CAEA,
      caeaVencimiento: "20261215",
    });
    expect(qrData(pendiente.value.qr)).toMatchObject({
      nroCmp: 2,
      tipoCodAut: "A",
      codAut: Number(CAEA),
    });
    expect(informado.value).toMatchObject({
      state: "authorized",
      tipoAutorizacion: "CAEA",
      caeaInformadoAt: "2026-12-16T13:00:00.000Z",
    });
    expect(qrData(informado.value.qr)).toMatchObject({ tipoCodAut: "A" });
    expect(rechazado.value).toMatchObject({
      state: "caea_rechazado",
      tipoAutorizacion: "CAEA",
      qr: null,
      rechazo: [
        { code: 10016, msg: "El numero de comprobante no es correlativo" },
        { code: 10217, msg: "Observado" },
      ],
    });
  });
});
