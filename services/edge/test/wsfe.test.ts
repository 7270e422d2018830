import { wsfe } from "@pasarela/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  issueFacturaC,
  randomCuit,
  startQueryStack,
  type ErrorBody,
  type QueryStack,
  type Registered,
} from "./query-stack.js";

describe("/api/wsfe: domestic queries end to end against the simulator", () => {
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
      ptoVta: 3,
      delegate: ["wsfe"],
      pos: [
        { ptoVta: 3, service: "wsfe" },
        { ptoVta: 7, service: "wsfe" },
      ],
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

  describe("ultimo-comprobante", () => {
    it("answers the last authorized number of the point of sale asked for", async () => {
      const response = await stack.post(
        "/api/wsfe/ultimo-comprobante",
        auth,
        body({ cbteTipo: 11, ptoVta: 7 }),
      );
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ cbteNro: 0, ptoVta: 7, cbteTipo: 11 });
    });

    it("uses and returns the representada's configured point of sale when ptoVta is omitted", async () => {
      await issueFacturaC(stack, { accountId, cuit: main.cuit, environment: env }, 3, 1, 100);
      const response = await stack.post(
        "/api/wsfe/ultimo-comprobante",
        auth,
        body({ cbteTipo: 11 }),
      );
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ cbteNro: 1, ptoVta: 3, cbteTipo: 11 });
    });

    it("answers 400 naming ptoVta when it is omitted and none is configured", async () => {
      const bare = await stack.register({ accountId, environment: env, delegate: ["wsfe"] });
      const response = await stack.post("/api/wsfe/ultimo-comprobante", auth, {
        environment: env,
        representada: bare.cuit,
        cbteTipo: 11,
      });
      expect(response.statusCode).toBe(400);
      const error = response.json<ErrorBody>();
      expect(error.code).toBe("INVALID_FIELD");
      expect(error.error).toContain("ptoVta");
    });

    it("answers 400 with the authority's text for a point of sale not enabled (11002)", async () => {
      const response = await stack.post(
        "/api/wsfe/ultimo-comprobante",
        auth,
        body({ cbteTipo: 11, ptoVta: 1 }),
      );
      expect(response.statusCode).toBe(400);
      const error = response.json<ErrorBody>();
      expect(error.code).toBe("POINT_OF_SALE_NOT_ENABLED");
      expect(error.error).toContain("11002");
      expect(error.error).toContain("no se encuentra habilitado");
      expect(error.details).toMatchObject({ field: "ptoVta", ptoVta: 1, authorityCode: 11002 });
    });
  });

  describe("comprobante", () => {
    it("answers the voucher in its documented shape, impTotal with two decimals", async () => {
      await issueFacturaC(stack, { accountId, cuit: main.cuit, environment: env }, 7, 1, 1210.5);
      const response = await stack.post(
        "/api/wsfe/comprobante",
        auth,
        body({ cbteTipo: 11, cbteNro: 1, ptoVta: 7 }),
      );
      expect(response.statusCode).toBe(200);
      const found = response.json<Record<string, unknown>>();
      expect(Object.keys(found).sort()).toEqual(
        [
          "found",
          "codAutorizacion",
          "resultado",
          "cbteDesde",
          "cbteHasta",
          "cbteFch",
          "impTotal",
          "impNeto",
          "impIVA",
        ].sort(),
      );
      expect(found).toMatchObject({
        found: true,
        resultado: "A",
        cbteDesde: 1,
        cbteHasta: 1,
        impTotal: 1210.5,
        impNeto: 1210.5,
        impIVA: 0,
      });
      expect(found.codAutorizacion).toMatch(/^\d{14}$/);
      expect(found.cbteFch).toMatch(/^\d{8}$/);
    });

    it("adds email only when the gateway has an e-mail record for the voucher", async () => {
      await stack.wsfe.emails.save(
        { accountId, environment: env, cuit: main.cuit, ptoVta: 3, cbteTipo: 11, cbteNro: 1 },
        { to: "cliente@example.com", status: "sent", error: null },
      );
      const response = await stack.post(
        "/api/wsfe/comprobante",
        auth,
        body({ cbteTipo: 11, cbteNro: 1 }),
      );
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        found: true,
        impTotal: 100,
        email: { to: "cliente@example.com", status: "sent", error: null },
      });
    });

    it("answers exactly {found: false} when the authority has no such voucher (602)", async () => {
      const response = await stack.post(
        "/api/wsfe/comprobante",
        auth,
        body({ cbteTipo: 11, cbteNro: 999, ptoVta: 7 }),
      );
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe('{"found":false}');
    });
  });

  describe("parametros", () => {
    it.each([
      ["tipos-comprobante", { id: 11, descripcion: "Factura C" }],
      ["tipos-documento", { id: 96, descripcion: "DNI" }],
      ["alicuotas-iva", { id: "5", descripcion: "21%" }],
      ["condicion-iva-receptor", { id: 5 }],
      ["tipos-opcional", { id: "2101" }],
      ["puntos-de-venta", { id: 3, bloqueado: false, fechaBaja: null }],
    ])("%s answers {tabla, items} with the authority's ids", async (tabla, expected) => {
      const response = await stack.post(`/api/wsfe/parametros/${tabla}`, auth, body());
      expect(response.statusCode).toBe(200);
      const result = response.json<{ tabla: string; items: Record<string, unknown>[] }>();
      expect(result.tabla).toBe(tabla);
      expect(result.items.length).toBeGreaterThan(0);
      for (const item of result.items) {
        expect(item).toHaveProperty("id");
        expect(typeof item.descripcion).toBe("string");
      }
      expect(result.items).toContainEqual(expect.objectContaining(expected));
    });

    it("puntos-de-venta lists exactly the points enabled for web services", async () => {
      const response = await stack.post("/api/wsfe/parametros/puntos-de-venta", auth, body());
      const ids = response.json<{ items: { id: number }[] }>().items.map((i) => i.id);
      expect(ids).toEqual([3, 7]);
    });

    it("cotizacion answers {tabla, moneda, cotizacion, fecha}, the dollar by default", async () => {
      await stack.control.setCotizacion(env, { monId: "DOL", cotiz: 1045.25 });
      const byDefault = await stack.post("/api/wsfe/parametros/cotizacion", auth, body());
      expect(byDefault.statusCode).toBe(200);
      expect(byDefault.json()).toEqual({
        tabla: "cotizacion",
        moneda: "DOL",
        cotizacion: 1045.25,
        fecha: expect.stringMatching(/^\d{8}$/) as unknown,
      });
      const pesos = await stack.post(
        "/api/wsfe/parametros/cotizacion",
        auth,
        body({ moneda: "PES" }),
      );
      expect(pesos.json()).toMatchObject({ moneda: "PES", cotizacion: 1 });
    });

    it("an unknown currency is a 400 with the authority's code and text", async () => {
      const response = await stack.post(
        "/api/wsfe/parametros/cotizacion",
        auth,
        body({ moneda: "XYZ" }),
      );
      expect(response.statusCode).toBe(400);
      expect(response.json<ErrorBody>()).toMatchObject({ code: "AUTHORITY_QUERY_REFUSED" });
      expect(response.json<ErrorBody>().error).toContain("12000");
    });

    it("answers 400 listing the valid tables for an unknown one, without calling the authority", async () => {
      const before = await stack.authorityCalls(env);
      const response = await stack.post("/api/wsfe/parametros/monedas", auth, body());
      expect(response.statusCode).toBe(400);
      const error = response.json<ErrorBody>();
      expect(error.code).toBe("UNKNOWN_TABLA");
      for (const tabla of [
        "tipos-comprobante",
        "tipos-documento",
        "alicuotas-iva",
        "puntos-de-venta",
        "condicion-iva-receptor",
        "tipos-opcional",
        "cotizacion",
      ]) {
        expect(error.error).toContain(tabla);
      }
      expect(await stack.authorityCalls(env)).toBe(before);
    });

    it("refuses moneda on a table other than cotizacion", async () => {
      const response = await stack.post(
        "/api/wsfe/parametros/tipos-documento",
        auth,
        body({ moneda: "DOL" }),
      );
      expect(response.statusCode).toBe(400);
      expect(response.json<ErrorBody>().error).toContain("moneda");
    });
  });

  describe("request errors (400, 401)", () => {
    it("answers 400 listing the accepted domestic types for an unsupported cbteTipo, authority not called", async () => {
      const before = await stack.authorityCalls(env);
      for (const [url, extra] of [
        ["/api/wsfe/ultimo-comprobante", {}],
        ["/api/wsfe/comprobante", { cbteNro: 1 }],
      ] as const) {
        const response = await stack.post(url, auth, body({ cbteTipo: 19, ...extra }));
        expect(response.statusCode).toBe(400);
        const error = response.json<ErrorBody>();
        expect(error.code).toBe("UNSUPPORTED_CBTE_TIPO");
        expect(error.error).toContain("1, 2, 3");
        expect(error.error).toContain("211, 212, 213");
      }
      // the service, asked over the bus without the edge, answers the very same error
      const refused = {
        ok: false,
        error: {
          code: "UNSUPPORTED_CBTE_TIPO",
          message: `cbteTipo 19 no soportado. Tipos aceptados: ${wsfe.WSFE_CBTE_TIPOS.join(", ")}`,
          details: { field: "cbteTipo", accepted: wsfe.WSFE_CBTE_TIPOS },
        },
      };
      const direct = { ...body(), cbteTipo: 19 };
      expect(await stack.client.request(wsfe.ultimoComprobanteLast, direct, { accountId })).toEqual(
        refused,
      );
      expect(
        await stack.client.request(wsfe.comprobanteGet, { ...direct, cbteNro: 1 }, { accountId }),
      ).toEqual(refused);
      expect(await stack.authorityCalls(env)).toBe(before);
    });

    it.each([
      ["non-JSON", "{environment:", "JSON"],
      ["environment missing", { representada: "20111111112", cbteTipo: 11 }, "environment"],
      [
        "environment unknown",
        { environment: "test", representada: "20111111112", cbteTipo: 11 },
        "environment",
      ],
      [
        "representada with hyphens",
        { environment: "homologacion", representada: "20-11111111-2", cbteTipo: 11 },
        "representada",
      ],
      [
        "cbteTipo missing",
        { environment: "homologacion", representada: "20111111112" },
        "cbteTipo",
      ],
      [
        "cbteTipo as text",
        { environment: "homologacion", representada: "20111111112", cbteTipo: "11" },
        "cbteTipo",
      ],
      [
        "ptoVta out of range",
        { environment: "homologacion", representada: "20111111112", cbteTipo: 11, ptoVta: 0 },
        "ptoVta",
      ],
      [
        "an unknown field",
        { environment: "homologacion", representada: "20111111112", cbteTipo: 11, x: 1 },
        "x",
      ],
    ])("answers 400 naming the problem: %s", async (_name, payload, mentions) => {
      const response = await stack.post("/api/wsfe/ultimo-comprobante", auth, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json<ErrorBody>().error).toContain(mentions);
    });

    it("answers 400 naming cbteNro when it is missing from a lookup", async () => {
      const response = await stack.post("/api/wsfe/comprobante", auth, body({ cbteTipo: 11 }));
      expect(response.statusCode).toBe(400);
      expect(response.json<ErrorBody>().error).toContain("cbteNro");
    });

    it('answers 401 {"error":"No autorizado"} without a valid key', async () => {
      for (const authorization of ["", "Bearer nada", auth.replace("Bearer ", "")]) {
        const response = await stack.post(
          "/api/wsfe/ultimo-comprobante",
          authorization,
          body({ cbteTipo: 11 }),
        );
        expect(response.statusCode).toBe(401);
        expect(response.body).toBe('{"error":"No autorizado"}');
      }
    });
  });

  describe("403: the caller's side, never an outage", () => {
    it("refuses a representada not registered for the environment, authority not called", async () => {
      const before = await stack.authorityCalls("produccion");
      const beforeHomo = await stack.authorityCalls(env);
      const response = await stack.post("/api/wsfe/ultimo-comprobante", auth, {
        environment: "produccion",
        representada: main.cuit,
        cbteTipo: 11,
        ptoVta: 3,
      });
      expect(response.statusCode).toBe(403);
      expect(response.json<ErrorBody>()).toMatchObject({
        code: "REPRESENTADA_NOT_FOUND",
        error:
          "La representada no existe, no pertenece a tu cuenta o no está registrada en ese entorno",
      });
      // another account's representada answers the same
      const other = await stack.newKey();
      const stranger = await stack.post(
        "/api/wsfe/ultimo-comprobante",
        other.authorization,
        body({ cbteTipo: 11 }),
      );
      expect(stranger.statusCode).toBe(403);
      expect(stranger.json<ErrorBody>().code).toBe("REPRESENTADA_NOT_FOUND");
      expect(await stack.authorityCalls("produccion")).toBe(before);
      expect(await stack.authorityCalls(env)).toBe(beforeHomo);
    });

    it("refuses a representada without an active certificate, authority not called", async () => {
      const pending = await stack.register({
        accountId,
        environment: env,
        ptoVta: 3,
        withoutCertificate: true,
      });
      const before = await stack.authorityCalls(env);
      for (const extra of [{}, { ptoVta: 3 }]) {
        const response = await stack.post("/api/wsfe/ultimo-comprobante", auth, {
          environment: env,
          representada: pending.cuit,
          cbteTipo: 11,
          ...extra,
        });
        expect(response.statusCode).toBe(403);
        expect(response.json<ErrorBody>()).toMatchObject({
          code: "NO_ACTIVE_CERTIFICATE",
          error: "La representada no tiene certificado activo en ese entorno",
        });
      }
      expect(await stack.authorityCalls(env)).toBe(before);
    });

    it("names wsfe and the environment when the certificate is not delegated for wsfe", async () => {
      const onlyFex = await stack.register({
        accountId,
        environment: env,
        ptoVta: 3,
        delegate: ["wsfex"],
        pos: [{ ptoVta: 3, service: "wsfe" }],
      });
      const response = await stack.post("/api/wsfe/ultimo-comprobante", auth, {
        environment: env,
        representada: onlyFex.cuit,
        cbteTipo: 11,
      });
      expect(response.statusCode).toBe(403);
      const error = response.json<ErrorBody>();
      expect(error.code).toBe("SERVICE_NOT_DELEGATED");
      expect(error.error).toContain("wsfe");
      expect(error.error).toContain("en homologación");
      expect(error.error).toContain("Computador no autorizado a acceder al servicio");
    });

    it("answers 403 for a test certificate registered for production (mix-up)", async () => {
      const mixed = await stack.register({
        accountId,
        environment: "produccion",
        ptoVta: 3,
        certFrom: "homologacion",
        delegate: ["wsfe"],
        pos: [{ ptoVta: 3, service: "wsfe" }],
      });
      const response = await stack.post("/api/wsfe/ultimo-comprobante", auth, {
        environment: "produccion",
        representada: mixed.cuit,
        cbteTipo: 11,
      });
      expect(response.statusCode).toBe(403);
      const error = response.json<ErrorBody>();
      expect(error.code).toBe("CERTIFICATE_ENVIRONMENT_MISMATCH");
      expect(error.error).toContain("Certificado no emitido por AC de confianza");
    });

    it("answers 403 when the represented taxpayer did not delegate wsfe (600 lista de relaciones)", async () => {
      // a representative's certificate (another CUIT) registered for the represented taxpayer
      const represented = await stack.register({
        accountId,
        environment: env,
        cuit: randomCuit("30"),
        ptoVta: 3,
        representative: { cuit: randomCuit(), alias: "estudio-contable" },
        delegate: ["wsfe"],
        pos: [{ ptoVta: 3, service: "wsfe" }],
      });

      const response = await stack.post("/api/wsfe/ultimo-comprobante", auth, {
        environment: env,
        representada: represented.cuit,
        cbteTipo: 11,
      });
      expect(response.statusCode).toBe(403);
      const error = response.json<ErrorBody>();
      expect(error.code).toBe("REPRESENTADA_NOT_DELEGATED");
      expect(error.error).toContain(represented.cuit);
      expect(error.error).toContain("lista de relaciones");
    });
  });

  describe("502: the authority's side, never a 403", () => {
    const ask = () =>
      stack.post("/api/wsfe/ultimo-comprobante", auth, body({ cbteTipo: 11, ptoVta: 3 }));

    it("answers 502 when WSFE answers 501", async () => {
      await stack.control.setFault(env, { service: "wsfe", mode: "error-501" });
      try {
        const response = await ask();
        expect(response.statusCode).toBe(502);
        const error = response.json<ErrorBody>();
        expect(error.code).toBe("AUTHORITY_UNAVAILABLE");
        expect(error.error).toContain("501");
      } finally {
        await stack.control.setFault(env, { service: "wsfe", mode: "none" });
      }
    });

    it("answers 502 when WSFE is down (HTTP 503)", async () => {
      await stack.control.setFault(env, { service: "wsfe", mode: "unavailable" });
      try {
        const response = await ask();
        expect(response.statusCode).toBe(502);
        expect(response.json<ErrorBody>().error).toContain("HTTP 503");
      } finally {
        await stack.control.setFault(env, { service: "wsfe", mode: "none" });
      }
    });

    it("answers 502 when WSFE does not answer in time", async () => {
      await stack.control.setFault(env, { service: "wsfe", mode: "timeout" });
      try {
        const response = await ask();
        expect(response.statusCode).toBe(502);
        expect(response.json<ErrorBody>().error).toContain("no respondió");
      } finally {
        await stack.control.setFault(env, { service: "wsfe", mode: "none" });
      }
    });

    it("answers 502 when WSAA is unavailable for a first login", async () => {
      const fresh = await stack.register({
        accountId,
        environment: env,
        ptoVta: 3,
        delegate: ["wsfe"],
        pos: [{ ptoVta: 3, service: "wsfe" }],
      });
      await stack.control.setFault(env, { service: "wsaa", mode: "unavailable" });
      try {
        const response = await stack.post("/api/wsfe/ultimo-comprobante", auth, {
          environment: env,
          representada: fresh.cuit,
          cbteTipo: 11,
        });
        expect(response.statusCode).toBe(502);
        expect(response.json<ErrorBody>().code).toBe("AUTHORITY_UNAVAILABLE");
      } finally {
        await stack.control.setFault(env, { service: "wsaa", mode: "none" });
      }
    });
  });

  it("logs in to WSAA once per certificate and service however many queries follow", async () => {
    const before = (await stack.control.stats(env)).logins;
    for (let i = 0; i < 5; i++) {
      expect(
        (await stack.post("/api/wsfe/ultimo-comprobante", auth, body({ cbteTipo: 11 }))).statusCode,
      ).toBe(200);
      expect(
        (await stack.post("/api/wsfe/parametros/tipos-documento", auth, body())).statusCode,
      ).toBe(200);
    }
    expect((await stack.control.stats(env)).logins).toEqual(before);
    expect(before[`${main.alias}|wsfe`]).toBe(1);
  });
});
