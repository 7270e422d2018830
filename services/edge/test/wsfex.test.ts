import { wsfex } from "@pasarela/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  issueFacturaE,
  randomCuit,
  startQueryStack,
  type ErrorBody,
  type QueryStack,
  type Registered,
} from "./query-stack.js";

describe("/api/wsfex: export queries end to end against the simulator", () => {
  let stack: QueryStack;
  let auth: string;
  let accountId: string;
  let main: Registered;
  const env = "homologacion" as const;

  beforeAll(async () => {
    stack = await startQueryStack({ authorityTimeoutMs: 1_500 });
    ({ accountId, authorization: auth } = await stack.newKey());
    main = await stack.register({
      accountId,
      environment: env,
      delegate: ["wsfex"],
      pos: [{ ptoVta: 5, service: "wsfex" }],
    });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const body = (extra: Record<string, unknown> = {}) => ({
    environment: env,
    representada: main.cuit,
    ...extra,
  });

  it("ultimo-comprobante answers {cbteNro, ptoVta, cbteTipo} from FEXGetLast_CMP", async () => {
    const empty = await stack.post(
      "/api/wsfex/ultimo-comprobante",
      auth,
      body({ ptoVta: 5, cbteTipo: 19 }),
    );
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ cbteNro: 0, ptoVta: 5, cbteTipo: 19 });
    await issueFacturaE(stack, { accountId, cuit: main.cuit, environment: env }, 5, 1);
    const after = await stack.post(
      "/api/wsfex/ultimo-comprobante",
      auth,
      body({ ptoVta: 5, cbteTipo: 19 }),
    );
    expect(after.json()).toEqual({ cbteNro: 1, ptoVta: 5, cbteTipo: 19 });
  });

  it("comprobante answers {found: true, comprobante: {FEXGetCMPResult}} as the authority sent it", async () => {
    const response = await stack.post(
      "/api/wsfex/comprobante",
      auth,
      body({ ptoVta: 5, cbteTipo: 19, cbteNro: 1 }),
    );
    expect(response.statusCode).toBe(200);
    const result = response.json<{
      found: boolean;
      comprobante: { FEXGetCMPResult: { FEXResultGet: Record<string, unknown> } };
    }>();
    expect(result.found).toBe(true);
    expect(Object.keys(result.comprobante)).toEqual(["FEXGetCMPResult"]);
    expect(result.comprobante.FEXGetCMPResult.FEXResultGet).toMatchObject({
      Cbte_tipo: "19",
      Punto_vta: "5",
      Cbte_nro: "1",
      Cliente: "Importadora SA",
      Resultado: "A",
    });
  });

  it("comprobante answers {found: false, comprobante: null} for 1020", async () => {
    const response = await stack.post(
      "/api/wsfex/comprobante",
      auth,
      body({ ptoVta: 5, cbteTipo: 19, cbteNro: 77 }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('{"found":false,"comprobante":null}');
  });

  it("permiso normalises a valid answer (OK) to A and passes other states through", async () => {
    const valid = await stack.post(
      "/api/wsfex/permiso",
      auth,
      body({ idPermiso: "09052EC01006154G", dstMerc: 203 }),
    );
    expect(valid.statusCode).toBe(200);
    expect(valid.json()).toEqual({ status: "A" });
    await stack.control.setPermit(env, {
      idPermiso: "24001EC01000001/A",
      dstMerc: 225,
      status: "NO",
    });
    const denied = await stack.post(
      "/api/wsfex/permiso",
      auth,
      body({ idPermiso: "24001EC01000001/A", dstMerc: 225 }),
    );
    expect(denied.json()).toEqual({ status: "NO" });
  });

  describe("parametros", () => {
    it.each([
      [
        "tipos-comprobante",
        { id: 19, descripcion: "Facturas de Exportación", vigenciaHasta: null },
      ],
      ["tipos-exportacion", { id: 2, descripcion: "Servicios" }],
      ["incoterms", { id: "FOB", descripcion: "FOB", vigenciaDesde: "20100101" }],
      ["idiomas", { id: 2, descripcion: "Inglés" }],
      ["unidades-medida", { id: 99, descripcion: "bonificación" }],
      ["paises", { id: 203, descripcion: "BRASIL" }],
      ["cuit-paises", { id: "50000000016" }],
      ["monedas", { id: "DOL" }],
    ])(
      "%s answers {tabla, items} with ids of the type the export voucher takes",
      async (tabla, expected) => {
        const response = await stack.post(`/api/wsfex/parametros/${tabla}`, auth, body());
        expect(response.statusCode, response.body).toBe(200);
        const result = response.json<{ tabla: string; items: Record<string, unknown>[] }>();
        expect(result.tabla).toBe(tabla);
        expect(result.items.length).toBeGreaterThan(0);
        for (const item of result.items) {
          expect(typeof item.id).toBe(typeof expected.id);
          expect(typeof item.descripcion).toBe("string");
        }
        expect(result.items).toContainEqual(expect.objectContaining(expected));
      },
    );

    it("puntos-de-venta lists the export points of sale, and none as an empty list", async () => {
      const response = await stack.post("/api/wsfex/parametros/puntos-de-venta", auth, body());
      expect(response.json()).toEqual({
        tabla: "puntos-de-venta",
        items: [{ id: 5, bloqueado: false, fechaBaja: null }],
      });
      const none = await stack.register({ accountId, environment: env, delegate: ["wsfex"] });
      const empty = await stack.post("/api/wsfex/parametros/puntos-de-venta", auth, {
        environment: env,
        representada: none.cuit,
      });
      expect(empty.statusCode, empty.body).toBe(200);
      expect(empty.body).toBe('{"tabla":"puntos-de-venta","items":[]}');
    });

    it("monedas-con-cotizacion and cotizacion answer the rate as a JSON number and the day as AAAAMMDD", async () => {
      await stack.control.setCotizacion(env, { monId: "DOL", cotiz: 1045.25 });
      const listed = await stack.post("/api/wsfex/parametros/monedas-con-cotizacion", auth, body());
      expect(listed.statusCode, listed.body).toBe(200);
      const items = listed.json<{ items: { id: string; cotizacion: unknown; fecha: string }[] }>()
        .items;
      const dollar = items.find((item) => item.id === "DOL");
      expect(dollar).toMatchObject({
        cotizacion: 1045.25,
        fecha: expect.stringMatching(/^\d{8}$/) as unknown,
      });
      const quote = await stack.post(
        "/api/wsfex/parametros/cotizacion",
        auth,
        body({ monedaId: "DOL" }),
      );
      expect(quote.statusCode, quote.body).toBe(200);
      expect(quote.json()).toEqual({
        tabla: "cotizacion",
        moneda: "DOL",
        cotizacion: 1045.25,
        fecha: dollar?.fecha,
      });
    });

    it("answers a currency the authority does not quote as a 400 with its code and text", async () => {
      const response = await stack.post(
        "/api/wsfex/parametros/cotizacion",
        auth,
        body({ monedaId: "XYZ" }),
      );
      expect(response.statusCode).toBe(400);
      const error = response.json<ErrorBody>();
      expect(error.code).toBe("AUTHORITY_QUERY_REFUSED");
      expect(error.error).toContain("1014");
      expect(error.error).toContain("XYZ");
    });

    it("answers 400 listing the valid tables for an unknown one, without calling the authority", async () => {
      const before = await stack.authorityCalls(env);
      const response = await stack.post("/api/wsfex/parametros/alicuotas-iva", auth, body());
      expect(response.statusCode).toBe(400);
      const error = response.json<ErrorBody>();
      expect(error.code).toBe("UNKNOWN_TABLA");
      for (const tabla of wsfex.TABLAS) expect(error.error).toContain(tabla);
      expect(await stack.authorityCalls(env)).toBe(before);
    });

    it.each([
      ["cotizacion without monedaId", "cotizacion", {}, "monedaId"],
      ["monedaId on another table", "monedas", { monedaId: "DOL" }, "monedaId"],
      ["fecha on a table without rates", "paises", { fecha: "20260101" }, "fecha"],
      ["fecha not AAAAMMDD", "monedas-con-cotizacion", { fecha: "2026-01-01" }, "fecha"],
    ])("answers 400 naming the field: %s", async (_name, tabla, extra, field) => {
      const before = await stack.authorityCalls(env);
      const response = await stack.post(`/api/wsfex/parametros/${tabla}`, auth, body(extra));
      expect(response.statusCode).toBe(400);
      expect(response.json<ErrorBody>().error).toContain(field);
      expect(await stack.authorityCalls(env)).toBe(before);
    });

    it("is documented with request examples the body takes", async () => {
      const document = (await stack.edge.app.inject({ method: "GET", url: "/docs/json" })).json<{
        paths: Record<
          string,
          {
            post: {
              requestBody: {
                content: { "application/json": { examples: Record<string, { value: unknown }> } };
              };
            };
          }
        >;
      }>();
      const operation = document.paths["/api/wsfex/parametros/{tabla}"]!.post;
      const examples = operation.requestBody.content["application/json"].examples;
      expect(Object.keys(examples).sort()).toEqual(["cotizacion", "lista", "monedasConCotizacion"]);
      for (const example of Object.values(examples)) {
        expect(wsfex.parametrosOptionsSchema.strict().safeParse(example.value).success).toBe(true);
      }
    });
  });

  it("answers 400 listing 19, 20, 21 for an unsupported cbteTipo, authority not called", async () => {
    const before = await stack.authorityCalls(env);
    for (const [url, extra] of [
      ["/api/wsfex/ultimo-comprobante", {}],
      ["/api/wsfex/comprobante", { cbteNro: 1 }],
    ] as const) {
      const response = await stack.post(url, auth, body({ ptoVta: 5, cbteTipo: 11, ...extra }));
      expect(response.statusCode).toBe(400);
      const error = response.json<ErrorBody>();
      expect(error.code).toBe("UNSUPPORTED_CBTE_TIPO");
      expect(error.error).toContain("19, 20, 21");
    }
    // the service, asked over the bus without the edge, answers the very same error
    const refused = {
      ok: false,
      error: {
        code: "UNSUPPORTED_CBTE_TIPO",
        message: "cbteTipo 11 no soportado. Tipos aceptados: 19, 20, 21",
        details: { field: "cbteTipo", accepted: [19, 20, 21] },
      },
    };
    const direct = { ...body(), ptoVta: 5, cbteTipo: 11 };
    expect(await stack.client.request(wsfex.ultimoComprobanteLast, direct, { accountId })).toEqual(
      refused,
    );
    expect(
      await stack.client.request(wsfex.comprobanteGet, { ...direct, cbteNro: 1 }, { accountId }),
    ).toEqual(refused);
    expect(await stack.authorityCalls(env)).toBe(before);
  });

  it.each([
    [
      "ptoVta missing (required in export queries)",
      "/api/wsfex/ultimo-comprobante",
      { cbteTipo: 19 },
      "ptoVta",
    ],
    ["cbteNro missing", "/api/wsfex/comprobante", { ptoVta: 5, cbteTipo: 19 }, "cbteNro"],
    ["idPermiso missing", "/api/wsfex/permiso", { dstMerc: 203 }, "idPermiso"],
    ["dstMerc as text", "/api/wsfex/permiso", { idPermiso: "1/A", dstMerc: "203" }, "dstMerc"],
  ])("answers 400 naming the field: %s", async (_name, url, extra, field) => {
    const response = await stack.post(url, auth, body(extra));
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorBody>().error).toContain(field);
  });

  it("answers 400 for non-JSON and 401 without a key", async () => {
    const broken = await stack.post("/api/wsfex/permiso", auth, "{nope");
    expect(broken.statusCode).toBe(400);
    expect(broken.json<ErrorBody>().code).toBe("INVALID_JSON");
    const anonymous = await stack.post(
      "/api/wsfex/permiso",
      "",
      body({ idPermiso: "1/A", dstMerc: 1 }),
    );
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.body).toBe('{"error":"No autorizado"}');
  });

  it("answers 400 with the authority's text for a point of sale not of kind FEEWS (1607)", async () => {
    const response = await stack.post(
      "/api/wsfex/ultimo-comprobante",
      auth,
      body({ ptoVta: 9, cbteTipo: 19 }),
    );
    expect(response.statusCode).toBe(400);
    const error = response.json<ErrorBody>();
    expect(error.code).toBe("POINT_OF_SALE_NOT_ENABLED");
    expect(error.error).toContain("1607");
    expect(error.error).toContain("wsfex");
  });

  it("answers 403 for a representada not registered or without certificate, authority not called", async () => {
    const pending = await stack.register({ accountId, environment: env, withoutCertificate: true });
    const before = await stack.authorityCalls(env);
    const unknown = await stack.post("/api/wsfex/ultimo-comprobante", auth, {
      environment: env,
      representada: randomCuit(),
      ptoVta: 5,
      cbteTipo: 19,
    });
    expect(unknown.statusCode).toBe(403);
    expect(unknown.json<ErrorBody>().code).toBe("REPRESENTADA_NOT_FOUND");
    const noCertificate = await stack.post("/api/wsfex/permiso", auth, {
      environment: env,
      representada: pending.cuit,
      idPermiso: "1/A",
      dstMerc: 203,
    });
    expect(noCertificate.statusCode).toBe(403);
    expect(noCertificate.json<ErrorBody>().code).toBe("NO_ACTIVE_CERTIFICATE");
    expect(await stack.authorityCalls(env)).toBe(before);
  });

  it("answers 403 naming wsfex when only wsfe is delegated: delegating wsfe does not enable wsfex", async () => {
    const onlyFe = await stack.register({
      accountId,
      environment: env,
      delegate: ["wsfe"],
      pos: [{ ptoVta: 5, service: "wsfex" }],
    });
    const response = await stack.post("/api/wsfex/ultimo-comprobante", auth, {
      environment: env,
      representada: onlyFe.cuit,
      ptoVta: 5,
      cbteTipo: 19,
    });
    expect(response.statusCode).toBe(403);
    const error = response.json<ErrorBody>();
    expect(error.code).toBe("SERVICE_NOT_DELEGATED");
    expect(error.error).toContain("wsfex");
    expect(error.error).toContain("en homologación");
  });

  it("answers 403 for a test certificate registered for production (mix-up)", async () => {
    const mixed = await stack.register({
      accountId,
      environment: "produccion",
      certFrom: "homologacion",
      delegate: ["wsfex"],
    });
    const response = await stack.post("/api/wsfex/permiso", auth, {
      environment: "produccion",
      representada: mixed.cuit,
      idPermiso: "1/A",
      dstMerc: 203,
    });
    expect(response.statusCode).toBe(403);
    expect(response.json<ErrorBody>().code).toBe("CERTIFICATE_ENVIRONMENT_MISMATCH");
  });

  it("answers 403 when the represented taxpayer did not delegate wsfex to the certificate", async () => {
    const represented = await stack.register({
      accountId,
      environment: env,
      cuit: randomCuit("30"),
      representative: { cuit: randomCuit(), alias: "despachante" },
      delegate: ["wsfex"],
    });
    const response = await stack.post("/api/wsfex/ultimo-comprobante", auth, {
      environment: env,
      representada: represented.cuit,
      ptoVta: 5,
      cbteTipo: 19,
    });
    expect(response.statusCode).toBe(403);
    const error = response.json<ErrorBody>();
    expect(error.code).toBe("REPRESENTADA_NOT_DELEGATED");
    expect(error.error).toContain("lista de relaciones");
  });

  it("answers 502 for WSFEX 501 and for a timeout, never a 403", async () => {
    for (const mode of ["error-501", "timeout", "unavailable"] as const) {
      await stack.control.setFault(env, { service: "wsfex", mode });
      try {
        const response = await stack.post(
          "/api/wsfex/ultimo-comprobante",
          auth,
          body({ ptoVta: 5, cbteTipo: 19 }),
        );
        expect(response.statusCode, mode).toBe(502);
        expect(response.json<ErrorBody>().code).toBe("AUTHORITY_UNAVAILABLE");
      } finally {
        await stack.control.setFault(env, { service: "wsfex", mode: "none" });
      }
    }
  });
});
