import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueFacturaC, startQueryStack, type ErrorBody, type QueryStack } from "./query-stack.js";

/**
 * How the gateway reads what the authority answers, through the real query path and the
 * simulator over HTTP. Production logs in at the simulator's homologation WSAA here, so a
 * production query carries a token signed by the other environment's WSAA: the
 * test/production mix-up as WSFE itself reports it (600 "Error al verificar hash").
 */
describe("the authority's answers, read right", () => {
  let stack: QueryStack;
  let auth: string;
  let accountId: string;

  beforeAll(async () => {
    stack = await startQueryStack({ wsaaOf: { produccion: "homologacion" } });
    ({ accountId, authorization: auth } = await stack.newKey());
  });

  afterAll(async () => {
    await stack?.stop();
  });

  describe("impTotal rounded from the authority's decimal text", () => {
    it("answers 2.14 for a voucher of 2.135, which a double holds as 2.13499…", async () => {
      const who = await stack.register({
        accountId,
        environment: "homologacion",
        ptoVta: 3,
        delegate: ["wsfe"],
        pos: [{ ptoVta: 3, service: "wsfe" }],
      });
      const at = { accountId, cuit: who.cuit, environment: "homologacion" as const };
      await issueFacturaC(stack, at, 3, 1, 2.135);
      await issueFacturaC(stack, at, 3, 2, 199.995);
      for (const [cbteNro, impTotal, impNeto] of [
        [1, 2.14, 2.135],
        [2, 200, 199.995],
      ] as const) {
        const response = await stack.post("/api/wsfe/comprobante", auth, {
          environment: "homologacion",
          representada: who.cuit,
          cbteTipo: 11,
          cbteNro,
        });
        expect(response.statusCode, response.body).toBe(200);
        expect(response.json()).toMatchObject({ found: true, impTotal, impNeto });
      }
    });
  });

  describe("puntos-de-venta: the enabled ones only", () => {
    it("leaves out blocked and withdrawn points the authority still lists", async () => {
      const who = await stack.register({
        accountId,
        environment: "homologacion",
        delegate: ["wsfe"],
        pos: [{ ptoVta: 3, service: "wsfe" }],
      });
      const declare = (ptoVta: number, state: { bloqueado?: boolean; fchBaja?: string }) =>
        stack.control.enablePointOfSale("homologacion", {
          cuit: who.cuit,
          ptoVta,
          service: "wsfe",
          ...state,
        });
      await declare(4, { bloqueado: true });
      await declare(5, { fchBaja: "20240131" });
      await declare(6, { fchBaja: "20991231" });
      await declare(7, { bloqueado: true, fchBaja: "20991231" });
      const response = await stack.post("/api/wsfe/parametros/puntos-de-venta", auth, {
        environment: "homologacion",
        representada: who.cuit,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({
        tabla: "puntos-de-venta",
        items: [
          { id: 3, descripcion: "CAE - Ri Iva", bloqueado: false, fechaBaja: null },
          { id: 6, descripcion: "CAE - Ri Iva", bloqueado: false, fechaBaja: "20991231" },
        ],
      });
    });
  });

  describe("test/production mix-up seen by WSFE (600) and WSFEX (1000): 'verificar hash'", () => {
    it("answers 403 with exactly the product's message, the authority's text in details", async () => {
      // a homologation certificate registered for production, delegated where it logs in
      const mixed = await stack.register({
        accountId,
        environment: "produccion",
        ptoVta: 3,
        certFrom: "homologacion",
        pos: [{ ptoVta: 3, service: "wsfe" }],
      });
      for (const service of ["wsfe", "wsfex"] as const) {
        await stack.control.delegate("homologacion", {
          cuit: mixed.cuit,
          alias: mixed.alias,
          service,
        });
      }
      for (const [url, extra, authorityCode] of [
        ["/api/wsfe/ultimo-comprobante", { cbteTipo: 11 }, 600],
        ["/api/wsfex/ultimo-comprobante", { cbteTipo: 19, ptoVta: 5 }, 1000],
      ] as const) {
        const response = await stack.post(url, auth, {
          environment: "produccion",
          representada: mixed.cuit,
          ...extra,
        });
        expect(response.statusCode, response.body).toBe(403);
        const error = response.json<ErrorBody>();
        expect(error).toMatchObject({
          code: "CERTIFICATE_ENVIRONMENT_MISMATCH",
          error: "Certificado no emitido por AC de confianza",
          details: { environment: "produccion", authorityCode },
        });
        expect(error.details?.authorityMessage).toContain("Error al verificar hash");
      }
    });
  });
});
