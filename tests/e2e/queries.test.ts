import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  http,
  newAccount,
  opensslKeyAndCsr,
  randomCuit,
  register,
  representadaCreateArgs,
  scratch,
  signCsr,
  simDelegate,
  simPos,
  simStats,
  type Account,
  type ErrorBody,
  type Registered,
  type Scratch,
} from "../support/operator.js";
import { seeder, type Seeder } from "../support/seed.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";

const env = "homologacion" as const;
const AUTHORITY_TIMEOUT_MS = 1_500;
const DOMESTIC_TABLES = [
  "tipos-comprobante",
  "tipos-documento",
  "alicuotas-iva",
  "puntos-de-venta",
  "condicion-iva-receptor",
  "tipos-opcional",
  "cotizacion",
];

describe("queries end to end: /api/wsfe and /api/wsfex through processes, CLIs and the simulator", () => {
  let stack: E2EStack;
  let dir: Scratch;
  let seed: Seeder;
  let account: Account;
  /** delegated wsfe and wsfex; --pto-vta 3; points of sale 3, 7 (wsfe) and 5 (wsfex) */
  let main: Registered;
  /** delegated wsfe only; no login made until the WSAA fault tests */
  let onlyFe: Registered;
  /** CSR pending: no active certificate */
  let pending: Registered;
  /** a homologacion representada holding a certificate of the produccion CA */
  let mixed: Registered;
  /** a representative's certificate (another CUIT) registered for a represented taxpayer */
  let represented: Registered;
  /** another account (read_write key), for the uniform 403 */
  let stranger: Account;

  /** POST with the account's read_write key, another key, or (null) none at all */
  const post = (path: string, body: unknown, authorization: string | null = account.rw) =>
    http(stack, "POST", path, authorization ?? undefined, body);
  const as = (who: Registered, extra: Record<string, unknown> = {}) => ({
    environment: who.environment,
    representada: who.cuit,
    ...extra,
  });
  /** requests the simulator has seen (`sim stats`), in homologacion or in both environments */
  const authorityTotal = async (both = false) => {
    const totals = await Promise.all(
      (both ? (["homologacion", "produccion"] as const) : [env]).map(
        async (e) => (await simStats(stack, e)).total,
      ),
    );
    return totals.reduce((a, b) => a + b, 0);
  };
  type FaultMode = "error-501" | "timeout" | "unavailable" | "drop-after-commit";
  /** runs `check` under each fault mode in turn (`sim fault`), then clears the fault */
  const underFaults = async (
    service: "wsaa" | "wsfe" | "wsfex",
    modes: readonly FaultMode[],
    check: (mode: FaultMode) => Promise<void>,
  ) => {
    try {
      for (const mode of modes) {
        await stack.sim("fault", "--environment", env, "--service", service, "--mode", mode);
        await check(mode);
      }
    } finally {
      await stack.sim("fault", "--environment", env, "--service", service, "--mode", "none");
    }
  };

  async function registerRepresented(): Promise<Registered> {
    const cuit = randomCuit("30");
    const representative = randomCuit();
    const alias = "estudio-contable";
    const [created, { keyFile, csrFile }] = await Promise.all([
      stack.admin<{ representadaId: string }>(
        ...representadaCreateArgs(account.accountId, cuit, env, "--pto-vta", "3"),
      ),
      opensslKeyAndCsr(dir, representative, alias),
    ]);
    const pem = await signCsr(stack, dir, env, readFileSync(csrFile, "utf8"));
    await Promise.all([
      stack.admin(
        "certificate",
        "upload",
        "--representada",
        created.representadaId,
        "--cert",
        dir.file("representative.pem", pem),
        "--key",
        keyFile,
      ),
      simDelegate(stack, env, { cuit: representative, alias, service: "wsfe" }),
      simPos(stack, env, { cuit, ptoVta: 3 }),
    ]);
    return { representadaId: created.representadaId, cuit, alias, environment: env };
  }

  beforeAll(async () => {
    stack = await startE2EStack({
      env: { AUTHORITY_TIMEOUT_MS: String(AUTHORITY_TIMEOUT_MS), LOG_LEVEL: "info" },
    });
    dir = scratch();
    account = await newAccount(stack, "Consultas");
    const accountId = account.accountId;
    [main, onlyFe, pending, mixed, represented, stranger] = await Promise.all([
      register(stack, dir, {
        accountId,
        environment: env,
        ptoVta: 3,
        delegate: ["wsfe", "wsfex"],
        pos: [
          { ptoVta: 3, service: "wsfe" },
          { ptoVta: 7, service: "wsfe" },
          { ptoVta: 5, service: "wsfex" },
        ],
      }),
      register(stack, dir, {
        accountId,
        environment: env,
        ptoVta: 3,
        delegate: ["wsfe"],
        pos: [
          { ptoVta: 3, service: "wsfe" },
          { ptoVta: 5, service: "wsfex" },
        ],
      }),
      register(stack, dir, { accountId, environment: env, ptoVta: 3, withoutCertificate: true }),
      register(stack, dir, {
        accountId,
        environment: env,
        ptoVta: 3,
        certFrom: "produccion",
        delegate: ["wsfe"],
        pos: [{ ptoVta: 3, service: "wsfe" }],
      }),
      registerRepresented(),
      newAccount(stack, "Ajena"),
    ]);
    seed = await seeder(stack);
  });

  afterAll(async () => {
    await seed?.close();
    await stack?.teardown();
    dir?.remove();
  });

  describe("/api/wsfe", () => {
    it("ultimo-comprobante answers the last number of the point of sale asked for", async () => {
      const response = await post(
        "/api/wsfe/ultimo-comprobante",
        as(main, { cbteTipo: 11, ptoVta: 7 }),
      );
      expect(response.status, response.text).toBe(200);
      expect(response.json()).toEqual({ cbteNro: 0, ptoVta: 7, cbteTipo: 11 });
    });

    it("ultimo-comprobante uses and returns the --pto-vta given at registration when ptoVta is omitted", async () => {
      await seed.facturaC(
        { accountId: account.accountId, cuit: main.cuit, environment: env },
        3,
        1,
        100,
      );
      const response = await post("/api/wsfe/ultimo-comprobante", as(main, { cbteTipo: 11 }));
      expect(response.status, response.text).toBe(200);
      expect(response.json()).toEqual({ cbteNro: 1, ptoVta: 3, cbteTipo: 11 });
    });

    it("comprobante answers a voucher in its documented shape", async () => {
      await seed.facturaC(
        { accountId: account.accountId, cuit: main.cuit, environment: env },
        7,
        1,
        1210.5,
      );
      const response = await post(
        "/api/wsfe/comprobante",
        as(main, { cbteTipo: 11, cbteNro: 1, ptoVta: 7 }),
      );
      expect(response.status, response.text).toBe(200);
      const found = response.json();
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
      // the configured point of sale is used for a lookup without ptoVta too
      const byDefault = await post("/api/wsfe/comprobante", as(main, { cbteTipo: 11, cbteNro: 1 }));
      expect(byDefault.json()).toMatchObject({ found: true, impTotal: 100 });
    });

    it("comprobante answers exactly {found: false} for a voucher the authority does not have", async () => {
      const response = await post(
        "/api/wsfe/comprobante",
        as(main, { cbteTipo: 11, cbteNro: 999, ptoVta: 7 }),
      );
      expect(response.status).toBe(200);
      expect(response.text).toBe('{"found":false}');
    });

    it.each([
      ["tipos-comprobante", { id: 11, descripcion: "Factura C" }],
      ["tipos-documento", { id: 96, descripcion: "DNI" }],
      ["alicuotas-iva", { id: "5", descripcion: "21%" }],
      ["condicion-iva-receptor", { id: 5 }],
      ["tipos-opcional", { id: "2101" }],
      ["puntos-de-venta", { id: 3, bloqueado: false, fechaBaja: null }],
    ])("parametros/%s answers {tabla, items} with the authority's ids", async (tabla, expected) => {
      const response = await post(`/api/wsfe/parametros/${tabla}`, as(main));
      expect(response.status, response.text).toBe(200);
      const result = response.json<{ tabla: string; items: Record<string, unknown>[] }>();
      expect(result.tabla).toBe(tabla);
      for (const item of result.items) {
        expect(item).toHaveProperty("id");
        expect(typeof item.descripcion).toBe("string");
      }
      expect(result.items).toContainEqual(expect.objectContaining(expected));
    });

    it("parametros/puntos-de-venta lists exactly the points enabled with sim pos", async () => {
      const response = await post("/api/wsfe/parametros/puntos-de-venta", as(main));
      expect(response.json<{ items: { id: number }[] }>().items.map((i) => i.id)).toEqual([3, 7]);
    });

    it("parametros/cotizacion answers {tabla, moneda, cotizacion, fecha}, the dollar by default", async () => {
      const dollar = await post("/api/wsfe/parametros/cotizacion", as(main));
      expect(dollar.status, dollar.text).toBe(200);
      expect(dollar.json()).toEqual({
        tabla: "cotizacion",
        moneda: "DOL",
        cotizacion: expect.any(Number) as unknown,
        fecha: expect.stringMatching(/^\d{8}$/) as unknown,
      });
      const pesos = await post("/api/wsfe/parametros/cotizacion", as(main, { moneda: "PES" }));
      expect(pesos.json()).toMatchObject({ tabla: "cotizacion", moneda: "PES", cotizacion: 1 });
    });

    it("answers 400 with the authority's 12000 text for an unknown currency", async () => {
      const response = await post("/api/wsfe/parametros/cotizacion", as(main, { moneda: "XYZ" }));
      expect(response.status, response.text).toBe(400);
      const error = response.json<ErrorBody>();
      expect(error.code).toBe("AUTHORITY_QUERY_REFUSED");
      expect(error.error).toContain("12000");
    });

    it("answers 400 listing every valid table for an unknown one, without calling the authority", async () => {
      const before = await authorityTotal();
      const response = await post("/api/wsfe/parametros/monedas", as(main));
      expect(response.status).toBe(400);
      const error = response.json<ErrorBody>();
      expect(error.code).toBe("UNKNOWN_TABLA");
      for (const tabla of DOMESTIC_TABLES) expect(error.error).toContain(tabla);
      expect(await authorityTotal()).toBe(before);
    });

    it("answers 400 with the authority's 11002 text for a point of sale not enabled", async () => {
      const response = await post(
        "/api/wsfe/ultimo-comprobante",
        as(main, { cbteTipo: 11, ptoVta: 1 }),
      );
      expect(response.status).toBe(400);
      const error = response.json<ErrorBody>();
      expect(error.code).toBe("POINT_OF_SALE_NOT_ENABLED");
      expect(error.error).toContain("11002");
      expect(error.error).toContain("no se encuentra habilitado");
      expect(error.details).toMatchObject({ field: "ptoVta", ptoVta: 1, authorityCode: 11002 });
    });
  });

  describe("/api/wsfex", () => {
    it("ultimo-comprobante answers {cbteNro, ptoVta, cbteTipo}, following an authorized voucher", async () => {
      const empty = await post(
        "/api/wsfex/ultimo-comprobante",
        as(main, { ptoVta: 5, cbteTipo: 19 }),
      );
      expect(empty.status, empty.text).toBe(200);
      expect(empty.json()).toEqual({ cbteNro: 0, ptoVta: 5, cbteTipo: 19 });
      await seed.facturaE(
        { accountId: account.accountId, cuit: main.cuit, environment: env },
        5,
        1,
      );
      const after = await post(
        "/api/wsfex/ultimo-comprobante",
        as(main, { ptoVta: 5, cbteTipo: 19 }),
      );
      expect(after.json()).toEqual({ cbteNro: 1, ptoVta: 5, cbteTipo: 19 });
    });

    it("comprobante answers {found: true, comprobante: {FEXGetCMPResult}} as the authority sent it", async () => {
      const response = await post(
        "/api/wsfex/comprobante",
        as(main, { ptoVta: 5, cbteTipo: 19, cbteNro: 1 }),
      );
      expect(response.status, response.text).toBe(200);
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

    it("comprobante answers exactly {found: false, comprobante: null} for an unknown voucher", async () => {
      const response = await post(
        "/api/wsfex/comprobante",
        as(main, { ptoVta: 5, cbteTipo: 19, cbteNro: 77 }),
      );
      expect(response.status).toBe(200);
      expect(response.text).toBe('{"found":false,"comprobante":null}');
    });

    it("permiso answers status A for a valid shipping permit", async () => {
      const response = await post(
        "/api/wsfex/permiso",
        as(main, { idPermiso: "09052EC01006154G", dstMerc: 203 }),
      );
      expect(response.status, response.text).toBe(200);
      expect(response.json()).toEqual({ status: "A" });
    });

    it("permiso passes through the authority's state when it is not valid (`sim permit --status NO`)", async () => {
      const permit = { idPermiso: "26001EC01000123X", dstMerc: 212 };
      const set = (status: "OK" | "NO") =>
        stack.sim(
          "permit",
          "--environment",
          env,
          "--id-permiso",
          permit.idPermiso,
          "--dst-merc",
          String(permit.dstMerc),
          "--status",
          status,
        );
      expect(await set("NO")).toEqual({ ok: true });
      try {
        const denied = await post("/api/wsfex/permiso", as(main, permit));
        expect(denied.status, denied.text).toBe(200);
        expect(denied.json()).toEqual({ status: "NO" });
        // the same permit for another destination is still valid
        const other = await post("/api/wsfex/permiso", as(main, { ...permit, dstMerc: 203 }));
        expect(other.json()).toEqual({ status: "A" });
      } finally {
        await set("OK");
      }
      const valid = await post("/api/wsfex/permiso", as(main, permit));
      expect(valid.json()).toEqual({ status: "A" });
    });

    it.each([
      ["tipos-comprobante", { id: 19, descripcion: "Facturas de Exportación" }],
      ["incoterms", { id: "FOB", descripcion: "FOB" }],
      ["paises", { id: 203, descripcion: "BRASIL" }],
      ["monedas", { id: "DOL" }],
      ["puntos-de-venta", { id: 5, bloqueado: false, fechaBaja: null }],
    ])(
      "parametros/%s answers {tabla, items} with the authority's rows",
      async (tabla, expected) => {
        const response = await post(`/api/wsfex/parametros/${tabla}`, as(main));
        expect(response.status, response.text).toBe(200);
        const result = response.json<{ tabla: string; items: Record<string, unknown>[] }>();
        expect(result.tabla).toBe(tabla);
        expect(result.items).toContainEqual(expect.objectContaining(expected));
      },
    );

    it("parametros/cotizacion answers {tabla, moneda, cotizacion, fecha} for monedaId", async () => {
      const response = await post(
        "/api/wsfex/parametros/cotizacion",
        as(main, { monedaId: "DOL" }),
      );
      expect(response.status, response.text).toBe(200);
      expect(response.json()).toEqual({
        tabla: "cotizacion",
        moneda: "DOL",
        cotizacion: expect.any(Number) as unknown,
        fecha: expect.stringMatching(/^\d{8}$/) as unknown,
      });
    });

    it("answers 400 with the authority's 1607 text for a point of sale not enabled for wsfex", async () => {
      const response = await post(
        "/api/wsfex/ultimo-comprobante",
        as(main, { ptoVta: 9, cbteTipo: 19 }),
      );
      expect(response.status).toBe(400);
      const error = response.json<ErrorBody>();
      expect(error.code).toBe("POINT_OF_SALE_NOT_ENABLED");
      expect(error.error).toContain("1607");
    });
  });

  describe("400 and 401: the request itself", () => {
    it("answers 400 listing the accepted types for an unsupported cbteTipo, domestic and export lists differ", async () => {
      const before = await authorityTotal();
      for (const [path, extra] of [
        ["/api/wsfe/ultimo-comprobante", { cbteTipo: 19 }],
        ["/api/wsfe/comprobante", { cbteTipo: 19, cbteNro: 1 }],
      ] as const) {
        const response = await post(path, as(main, extra));
        expect(response.status, path).toBe(400);
        const error = response.json<ErrorBody>();
        expect(error.code).toBe("UNSUPPORTED_CBTE_TIPO");
        expect(error.error).toContain("1, 2, 3");
        expect(error.error).toContain("211, 212, 213");
        expect(error.error).not.toContain("19, 20, 21");
      }
      for (const [path, extra] of [
        ["/api/wsfex/ultimo-comprobante", { ptoVta: 5, cbteTipo: 11 }],
        ["/api/wsfex/comprobante", { ptoVta: 5, cbteTipo: 11, cbteNro: 1 }],
      ] as const) {
        const response = await post(path, as(main, extra));
        expect(response.status, path).toBe(400);
        const error = response.json<ErrorBody>();
        expect(error.code).toBe("UNSUPPORTED_CBTE_TIPO");
        expect(error.error).toContain("19, 20, 21");
      }
      expect(await authorityTotal()).toBe(before);
    });

    it.each([
      ["wsfe", "non-JSON", "/api/wsfe/ultimo-comprobante", "{environment:", "JSON"],
      [
        "wsfe",
        "environment missing",
        "/api/wsfe/ultimo-comprobante",
        { representada: "20111111112", cbteTipo: 11 },
        "environment",
      ],
      [
        "wsfe",
        "environment unknown",
        "/api/wsfe/ultimo-comprobante",
        { environment: "test", representada: "20111111112", cbteTipo: 11 },
        "environment",
      ],
      [
        "wsfe",
        "representada with hyphens",
        "/api/wsfe/ultimo-comprobante",
        { environment: env, representada: "20-11111111-2", cbteTipo: 11 },
        "representada",
      ],
      [
        "wsfe",
        "cbteTipo missing",
        "/api/wsfe/ultimo-comprobante",
        { environment: env, representada: "20111111112" },
        "cbteTipo",
      ],
      [
        "wsfe",
        "cbteTipo as text",
        "/api/wsfe/ultimo-comprobante",
        { environment: env, representada: "20111111112", cbteTipo: "11" },
        "cbteTipo",
      ],
      [
        "wsfe",
        "ptoVta out of range",
        "/api/wsfe/ultimo-comprobante",
        { environment: env, representada: "20111111112", cbteTipo: 11, ptoVta: 0 },
        "ptoVta",
      ],
      [
        "wsfe",
        "an unknown field",
        "/api/wsfe/ultimo-comprobante",
        { environment: env, representada: "20111111112", cbteTipo: 11, sobra: 1 },
        "sobra",
      ],
      [
        "wsfe",
        "cbteNro missing",
        "/api/wsfe/comprobante",
        { environment: env, representada: "20111111112", cbteTipo: 11 },
        "cbteNro",
      ],
      ["wsfex", "non-JSON", "/api/wsfex/permiso", "{nope", "JSON"],
      [
        "wsfex",
        "ptoVta missing (required in export queries)",
        "/api/wsfex/ultimo-comprobante",
        { environment: env, representada: "20111111112", cbteTipo: 19 },
        "ptoVta",
      ],
      [
        "wsfex",
        "cbteNro missing",
        "/api/wsfex/comprobante",
        { environment: env, representada: "20111111112", ptoVta: 5, cbteTipo: 19 },
        "cbteNro",
      ],
      [
        "wsfex",
        "idPermiso missing",
        "/api/wsfex/permiso",
        { environment: env, representada: "20111111112", dstMerc: 203 },
        "idPermiso",
      ],
      [
        "wsfex",
        "dstMerc as text",
        "/api/wsfex/permiso",
        { environment: env, representada: "20111111112", idPermiso: "1/A", dstMerc: "203" },
        "dstMerc",
      ],
    ])(
      "%s: answers 400 naming the problem: %s",
      async (_service, _name, path, payload, mentions) => {
        const response = await post(path, payload);
        expect(response.status, response.text).toBe(400);
        const error = response.json<ErrorBody>();
        expect(typeof error.code).toBe("string");
        expect(error.error).toContain(mentions);
      },
    );

    it('answers 401 exactly {"error":"No autorizado"} on every query route without a valid key', async () => {
      const routes = [
        ["/api/wsfe/ultimo-comprobante", as(main, { cbteTipo: 11 })],
        ["/api/wsfe/comprobante", as(main, { cbteTipo: 11, cbteNro: 1 })],
        ["/api/wsfe/parametros/tipos-documento", as(main)],
        ["/api/wsfex/ultimo-comprobante", as(main, { ptoVta: 5, cbteTipo: 19 })],
        ["/api/wsfex/comprobante", as(main, { ptoVta: 5, cbteTipo: 19, cbteNro: 1 })],
        ["/api/wsfex/permiso", as(main, { idPermiso: "1/A", dstMerc: 203 })],
      ] as const;
      for (const [path, body] of routes) {
        for (const authorization of [null, "Bearer nada", account.rw.replace("Bearer ", "")]) {
          const response = await post(path, body, authorization);
          expect(response.status, `${path} ${String(authorization)}`).toBe(401);
          expect(response.text).toBe('{"error":"No autorizado"}');
        }
      }
    });
  });

  describe("403: the caller's side, never an outage", () => {
    it("refuses a representada not registered (other environment, unknown CUIT, other account) without calling the authority", async () => {
      const before = await authorityTotal(true);
      const cases = [
        [
          account.rw,
          "/api/wsfe/ultimo-comprobante",
          { ...as(main, { cbteTipo: 11, ptoVta: 3 }), environment: "produccion" },
        ],
        [
          account.rw,
          "/api/wsfex/permiso",
          { environment: env, representada: randomCuit(), idPermiso: "1/A", dstMerc: 203 },
        ],
        [stranger.rw, "/api/wsfe/ultimo-comprobante", as(main, { cbteTipo: 11 })],
      ] as const;
      for (const [authorization, path, body] of cases) {
        const response = await post(path, body, authorization);
        expect(response.status, path).toBe(403);
        expect(response.json<ErrorBody>()).toMatchObject({
          code: "REPRESENTADA_NOT_FOUND",
          error:
            "La representada no existe, no pertenece a tu cuenta o no está registrada en ese entorno",
        });
      }
      expect(await authorityTotal(true)).toBe(before);
    });

    it("refuses a representada whose CSR is still pending (no active certificate) without calling the authority", async () => {
      const before = await authorityTotal();
      for (const [path, extra] of [
        ["/api/wsfe/ultimo-comprobante", { cbteTipo: 11 }],
        ["/api/wsfe/ultimo-comprobante", { cbteTipo: 11, ptoVta: 3 }],
        ["/api/wsfex/permiso", { idPermiso: "1/A", dstMerc: 203 }],
      ] as const) {
        const response = await post(path, as(pending, extra));
        expect(response.status, path).toBe(403);
        expect(response.json<ErrorBody>()).toMatchObject({
          code: "NO_ACTIVE_CERTIFICATE",
          error: "La representada no tiene certificado activo en ese entorno",
        });
      }
      expect(await authorityTotal()).toBe(before);
    });

    it("answers 403 naming wsfex and the environment when the certificate is delegated for wsfe only", async () => {
      const response = await post(
        "/api/wsfex/ultimo-comprobante",
        as(onlyFe, { ptoVta: 5, cbteTipo: 19 }),
      );
      expect(response.status, response.text).toBe(403);
      const error = response.json<ErrorBody>();
      expect(error.code).toBe("SERVICE_NOT_DELEGATED");
      expect(error.error).toContain("wsfex");
      expect(error.error).toContain("en homologación");
    });

    it("answers 403 for a produccion certificate uploaded for homologacion (test/production mix-up)", async () => {
      // the upload itself already warned the operator
      expect(mixed.upload).toMatchObject({
        status: "active",
        warning: "El certificado fue emitido por la AC del otro entorno",
      });
      const response = await post("/api/wsfe/ultimo-comprobante", as(mixed, { cbteTipo: 11 }));
      expect(response.status, response.text).toBe(403);
      const error = response.json<ErrorBody>();
      expect(error.code).toBe("CERTIFICATE_ENVIRONMENT_MISMATCH");
      expect(error.error).toContain("Certificado no emitido por AC de confianza");
    });

    it("answers 403 when the represented taxpayer did not delegate wsfe to the representative's certificate", async () => {
      const response = await post(
        "/api/wsfe/ultimo-comprobante",
        as(represented, { cbteTipo: 11 }),
      );
      expect(response.status, response.text).toBe(403);
      const error = response.json<ErrorBody>();
      expect(error.code).toBe("REPRESENTADA_NOT_DELEGATED");
      expect(error.error).toContain(represented.cuit);
      expect(error.error).toContain("lista de relaciones");
    });
  });

  describe("502: the authority's side, never a 403", () => {
    const ask = () => post("/api/wsfe/ultimo-comprobante", as(main, { cbteTipo: 11, ptoVta: 3 }));

    it("answers 502 when WSFE answers error 501, is down (HTTP 503), does not answer in time or cuts the connection", async () => {
      const expected = {
        "error-501": "501",
        unavailable: "503",
        timeout: "no respondió",
        // the connection cut without an answer: unclassifiable, still the authority's side
        "drop-after-commit": "",
      };
      const modes = ["error-501", "unavailable", "timeout", "drop-after-commit"] as const;
      await underFaults("wsfe", modes, async (mode) => {
        const started = Date.now();
        const response = await ask();
        expect(response.status, `${mode}: ${response.text}`).toBe(502);
        const error = response.json<ErrorBody>();
        expect(error.code).toBe("AUTHORITY_UNAVAILABLE");
        expect(error.error).toContain(expected[mode]);
        // bounded by the configured AUTHORITY_TIMEOUT_MS (the simulator holds for 120 s)
        expect(Date.now() - started).toBeLessThan(AUTHORITY_TIMEOUT_MS * 4);
      });
      expect((await ask()).status).toBe(200);
    });

    it("answers 502 when WSFEX answers 501 or does not answer in time", async () => {
      await underFaults("wsfex", ["error-501", "timeout"], async (mode) => {
        const response = await post(
          "/api/wsfex/ultimo-comprobante",
          as(main, { ptoVta: 5, cbteTipo: 19 }),
        );
        expect(response.status, `${mode}: ${response.text}`).toBe(502);
        expect(response.json<ErrorBody>().code).toBe("AUTHORITY_UNAVAILABLE");
      });
    });

    it("answers 502 for a first login while WSAA answers 501 or is unavailable, then 200 once it is back", async () => {
      const first = () => post("/api/wsfe/ultimo-comprobante", as(onlyFe, { cbteTipo: 11 }));
      await underFaults("wsaa", ["error-501", "unavailable"], async (mode) => {
        const response = await first();
        expect(response.status, `${mode}: ${response.text}`).toBe(502);
        expect(response.json<ErrorBody>().code).toBe("AUTHORITY_UNAVAILABLE");
      });
      const recovered = await first();
      expect(recovered.status, recovered.text).toBe(200);
      expect(recovered.json()).toEqual({ cbteNro: 0, ptoVta: 3, cbteTipo: 11 });
    });
  });

  it("logs in to WSAA exactly once per alias and service however many queries follow", async () => {
    const before = await simStats(stack, env);
    const queries = Array.from({ length: 10 }, (_, i) =>
      i % 2 === 0
        ? post("/api/wsfe/ultimo-comprobante", as(main, { cbteTipo: 11 }))
        : post("/api/wsfex/ultimo-comprobante", as(main, { ptoVta: 5, cbteTipo: 19 })),
    );
    for (const response of await Promise.all(queries)) expect(response.status).toBe(200);
    const after = await simStats(stack, env);
    expect(after.logins).toEqual(before.logins);
    expect(after.logins[`${main.alias}|wsfe`]).toBe(1);
    expect(after.logins[`${main.alias}|wsfex`]).toBe(1);
    expect(after.logins[`${onlyFe.alias}|wsfe`]).toBe(1);
  });
});
