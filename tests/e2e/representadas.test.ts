import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { makeControlClient, type ControlClient } from "@pasarela/authority-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  http,
  newAccount,
  opensslKeyAndCsr,
  randomCuit,
  register,
  scratch,
  signCsr,
  type Account,
  type Environment,
  type ErrorBody,
  type Scratch,
} from "../support/operator.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";

const READ_ONLY = "Esta API key es de solo lectura y no puede modificar datos de la cuenta.";
const SERVICES = [
  "wsfe",
  "wsfex",
  "ws_sr_padron_a13",
  "ws_sr_padron_a10",
  "ws_sr_constancia_inscripcion",
] as const;
type Service = (typeof SERVICES)[number];

interface Representada {
  representadaId: string;
  cuit: string;
  environment: Environment;
  alias: string;
  ptoVta: number | null;
  certificado: { estado: string; notBefore: string | null; notAfter: string | null } | null;
  perfil?: Record<string, unknown>;
  csr?: string | null;
}
interface Probe {
  ok: boolean;
  servicios: (
    | { service: Service; ok: true }
    | {
        service: Service;
        ok: false;
        code: string;
        error: string;
        fix: string;
      }
  )[];
}

describe("representadas end to end: /api/representadas over real processes and the simulator", () => {
  let stack: E2EStack;
  let control: ControlClient;
  let dir: Scratch;
  let owner: Account;
  let stranger: Account;

  beforeAll(async () => {
    stack = await startE2EStack({ env: { LOG_LEVEL: "info", AUTHORITY_TIMEOUT_MS: "3000" } });
    if (!stack.simulatorUrl) throw new Error("the stack runs no simulator");
    control = makeControlClient(stack.simulatorUrl);
    dir = scratch();
    [owner, stranger] = await Promise.all([
      newAccount(stack, "Representadas"),
      newAccount(stack, "Otra cuenta"),
    ]);
  });

  afterAll(async () => {
    await stack?.teardown();
    dir?.remove();
  });

  const send = (
    method: "GET" | "POST" | "PATCH",
    path: string,
    authorization: string,
    body?: unknown,
  ) => http(stack, method, path, authorization, body);
  const alias = () => `e2e-${randomBytes(4).toString("hex")}`;

  async function create(environment: Environment, extra: Record<string, unknown> = {}) {
    const cuit = randomCuit("30");
    const created = await send("POST", "/api/representadas", owner.rw, {
      environment,
      cuit,
      alias: alias(),
      ...extra,
    });
    expect(created.status, created.text).toBe(201);
    return created.json<Representada & { csr: string }>();
  }

  const probe = async (id: string, authorization = owner.ro) => {
    const answer = await send("POST", `/api/representadas/${id}/probar`, authorization);
    expect(answer.status, answer.text).toBe(200);
    return answer.json<Probe>();
  };

  it("creates a representada, refuses its CSR as the certificate, activates the signed certificate and probes it until every delegation is made", async () => {
    const created = await create("homologacion", { ptoVta: 3 });
    expect(created.csr).toMatch(/^-----BEGIN CERTIFICATE REQUEST-----/);
    expect(created.certificado).toMatchObject({ estado: "pendiente", notAfter: null });
    expect(created.ptoVta).toBe(3);
    const id = created.representadaId;

    // the CSR is still there to download until the certificate arrives
    const pending = await send("GET", `/api/representadas/${id}`, owner.ro);
    expect(pending.status, pending.text).toBe(200);
    expect(pending.json<Representada>().csr).toBe(created.csr);

    const csrInstead = await send("POST", `/api/representadas/${id}/certificado`, owner.rw, {
      certificado: created.csr,
    });
    expect(csrInstead.status, csrInstead.text).toBe(400);
    expect(csrInstead.json<ErrorBody>()).toMatchObject({
      code: "CERTIFICATE_IS_CSR",
      error: expect.stringContaining(
        "Subiste un pedido de certificado (CSR), no un certificado",
      ) as string,
    });

    const pem = await signCsr(stack, dir, "homologacion", created.csr);
    const uploaded = await send("POST", `/api/representadas/${id}/certificado`, owner.rw, {
      certificado: pem,
    });
    expect(uploaded.status, uploaded.text).toBe(200);
    expect(uploaded.json()).toMatchObject({ status: "active", representadaId: id });
    expect(uploaded.json()).not.toHaveProperty("warning");

    const active = (await send("GET", `/api/representadas/${id}`, owner.ro)).json<Representada>();
    expect(active.certificado?.estado).toBe("activo");
    expect(Date.parse(active.certificado?.notAfter ?? "")).toBeGreaterThan(Date.now());
    expect(active.csr).toBeNull();

    // nothing delegated yet: every service names its missing delegation and the step to take
    const before = await probe(id);
    expect(before.ok).toBe(false);
    expect(before.servicios.map((s) => s.service)).toEqual([...SERVICES]);
    for (const servicio of before.servicios) {
      expect(servicio).toMatchObject({
        ok: false,
        code: "SERVICE_NOT_DELEGATED",
        error: expect.stringContaining(
          `El certificado no está autorizado para el servicio ${servicio.service} en homologación`,
        ) as string,
        fix: expect.stringContaining(servicio.service) as string,
      });
      if (!servicio.ok) expect(servicio.fix).toContain(created.alias);
    }

    await control.delegate("homologacion", {
      cuit: created.cuit,
      alias: created.alias,
      service: "wsfe",
    });
    const partly = await probe(id);
    expect(partly.servicios.find((s) => s.service === "wsfe")).toEqual({
      service: "wsfe",
      ok: true,
    });
    expect(partly.servicios.filter((s) => !s.ok).map((s) => s.service)).toEqual(
      SERVICES.filter((s) => s !== "wsfe"),
    );

    await Promise.all(
      SERVICES.filter((s) => s !== "wsfe").map((service) =>
        control.delegate("homologacion", { cuit: created.cuit, alias: created.alias, service }),
      ),
    );
    const after = await probe(id);
    expect(after).toMatchObject({ ok: true, cuit: created.cuit, alias: created.alias });
    expect(after.servicios.every((s) => s.ok)).toBe(true);
  });

  it("lists the account's representadas per environment and changes point of sale and profile", async () => {
    const [homo, prod] = await Promise.all([create("homologacion"), create("produccion")]);
    const all = await send("GET", "/api/representadas", owner.ro);
    expect(all.status, all.text).toBe(200);
    const ids = all
      .json<{ representadas: Representada[] }>()
      .representadas.map((r) => r.representadaId);
    expect(ids).toEqual(expect.arrayContaining([homo.representadaId, prod.representadaId]));
    const onlyProd = await send("GET", "/api/representadas?environment=produccion", owner.ro);
    const prodList = onlyProd.json<{ representadas: Representada[] }>().representadas;
    expect(prodList.map((r) => r.representadaId)).toContain(prod.representadaId);
    expect(prodList.every((r) => r.environment === "produccion")).toBe(true);

    const patched = await send("PATCH", `/api/representadas/${homo.representadaId}`, owner.rw, {
      ptoVta: 7,
      razonSocial: "Distribuidora Norte SA",
      inicioActividades: "20190301",
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json<Representada>()).toMatchObject({
      ptoVta: 7,
      perfil: { razonSocial: "Distribuidora Norte SA", inicioActividades: "20190301" },
    });
    const cleared = await send("PATCH", `/api/representadas/${homo.representadaId}`, owner.rw, {
      ptoVta: null,
      razonSocial: null,
    });
    expect(cleared.json<Representada>()).toMatchObject({
      ptoVta: null,
      perfil: { razonSocial: null, inicioActividades: "20190301" },
    });
  });

  it("refuses writes with a read-only key and answers 404 alike for another account's, unknown and malformed ids", async () => {
    const mine = await create("homologacion");
    const id = mine.representadaId;
    const writes = await Promise.all([
      send("POST", "/api/representadas", owner.ro, {
        environment: "homologacion",
        cuit: randomCuit("30"),
      }),
      send("PATCH", `/api/representadas/${id}`, owner.ro, { ptoVta: 2 }),
      send("POST", `/api/representadas/${id}/certificado`, owner.ro, { certificado: "x" }),
    ]);
    for (const write of writes) {
      expect(write.status, write.text).toBe(403);
      expect(write.json<ErrorBody>().error).toBe(READ_ONLY);
    }

    const answers = await Promise.all([
      send("GET", `/api/representadas/${id}`, stranger.rw),
      send("PATCH", `/api/representadas/${id}`, stranger.rw, { ptoVta: 2 }),
      send("POST", `/api/representadas/${id}/certificado`, stranger.rw, { certificado: "x" }),
      send("POST", `/api/representadas/${id}/probar`, stranger.rw),
      send("GET", "/api/representadas/00000000-0000-4000-8000-000000000000", owner.rw),
      send("GET", "/api/representadas/no-es-un-id", owner.rw),
    ]);
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(404);
      expect(answer.json<ErrorBody>()).toEqual({
        error: "Representada no encontrada",
        code: "REPRESENTADA_ID_NOT_FOUND",
      });
    }
    const strangers = await send("GET", "/api/representadas", stranger.rw);
    expect(strangers.json<{ representadas: Representada[] }>().representadas).toEqual([]);
    const unchanged = await send("GET", `/api/representadas/${id}`, owner.rw);
    expect(unchanged.json<Representada>().ptoVta).toBeNull();
  });

  it("answers 400 naming the field for a wrong check digit, an unknown environment and a bad profile date, and 409 for a duplicate", async () => {
    const cases: [unknown, string][] = [
      [{ environment: "homologacion", cuit: "30111111110" }, "cuit"],
      [{ environment: "testing", cuit: randomCuit("30") }, "environment"],
      [{ environment: "homologacion", cuit: "30-11111111-1" }, "cuit"],
      [{ environment: "homologacion", cuit: randomCuit("30"), ptoVta: 0 }, "ptoVta"],
    ];
    for (const [body, field] of cases) {
      const answer = await send("POST", "/api/representadas", owner.rw, body);
      expect(answer.status, answer.text).toBe(400);
      expect(answer.json<ErrorBody>().error).toContain(field);
    }
    const mine = await create("homologacion");
    const badDate = await send("PATCH", `/api/representadas/${mine.representadaId}`, owner.rw, {
      inicioActividades: "2019-03-01",
    });
    expect(badDate.status, badDate.text).toBe(400);
    expect(badDate.json<ErrorBody>().error).toContain("inicioActividades");
    const unknownField = await send(
      "PATCH",
      `/api/representadas/${mine.representadaId}`,
      owner.rw,
      {
        cuit: "20111111112",
      },
    );
    expect(unknownField.status, unknownField.text).toBe(400);
    const notPem = await send(
      "POST",
      `/api/representadas/${mine.representadaId}/certificado`,
      owner.rw,
      {
        certificado: "hola",
      },
    );
    expect(notPem.status, notPem.text).toBe(400);
    expect(notPem.json<ErrorBody>().code).toBe("CERTIFICATE_NOT_PEM");

    const again = await send("POST", "/api/representadas", owner.rw, {
      environment: "homologacion",
      cuit: mine.cuit,
    });
    expect(again.status, again.text).toBe(409);
    expect(again.json<ErrorBody>().code).toBe("REPRESENTADA_DUPLICATE");
  });

  it("answers 400 naming logo for a logo that only starts like a PNG or a JPEG, through the API and the CLI", async () => {
    const mine = await create("homologacion");
    const path = `/api/representadas/${mine.representadaId}`;
    const fakes = [
      // the PNG signature alone
      { mediaType: "image/png", data: "iVBORw0KGgo=" },
      // a JPEG's SOI and JFIF header alone
      { mediaType: "image/jpeg", data: "/9j/4AAQSkZJRgABAQAAAQABAAA=" },
    ];
    for (const logo of fakes) {
      const answer = await send("PATCH", path, owner.rw, { razonSocial: "Con logo", logo });
      expect(answer.status, answer.text).toBe(400);
      const body = answer.json<ErrorBody>();
      expect(body.code).toBe("LOGO_INVALID");
      expect(body.error).toMatch(/^El logo debe ser una imagen PNG o JPEG .*: el archivo /);
      expect(body.details).toMatchObject({ field: "logo" });
    }
    // nothing of a refused request is kept
    const read = await send("GET", path, owner.ro);
    expect(read.json<{ perfil: unknown }>().perfil).toMatchObject({
      razonSocial: null,
      logo: null,
    });

    const fake = dir.file("fake.png", "");
    writeFileSync(fake, Buffer.from(fakes[0]!.data, "base64"));
    const cli = await stack.adminRun(
      "representada",
      "profile",
      "--representada",
      mine.representadaId,
      "--logo",
      fake,
    );
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain("El logo debe ser una imagen PNG o JPEG");

    // a real picture is kept
    const png =
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
    const kept = await send("PATCH", path, owner.rw, {
      logo: { mediaType: "image/png", data: png },
    });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.json<{ perfil: { logo: unknown } }>().perfil.logo).toEqual({
      mediaType: "image/png",
      data: png,
    });
  });

  it("refuses a certificate of another key, warns of the other environment's CA, and takes an outside pair in place of the CSR", async () => {
    const [first, second, prod, outside] = await Promise.all([
      create("homologacion"),
      create("homologacion"),
      create("produccion"),
      create("homologacion"),
    ]);
    // the certificate issued for the first's CSR does not match the second's key
    const firstPem = await signCsr(stack, dir, "homologacion", first.csr);
    const mismatch = await send(
      "POST",
      `/api/representadas/${second.representadaId}/certificado`,
      owner.rw,
      { certificado: firstPem },
    );
    expect(mismatch.status, mismatch.text).toBe(400);
    expect(mismatch.json<ErrorBody>()).toMatchObject({
      code: "CERTIFICATE_KEY_MISMATCH",
      error:
        "La clave pública del certificado no corresponde a la clave privada de la representada",
    });

    // a production representada with a certificate of the test CA: stored, with a warning
    const testCaPem = await signCsr(stack, dir, "homologacion", prod.csr);
    const warned = await send(
      "POST",
      `/api/representadas/${prod.representadaId}/certificado`,
      owner.rw,
      { certificado: testCaPem },
    );
    expect(warned.status, warned.text).toBe(200);
    expect(warned.json()).toMatchObject({
      status: "active",
      warning: {
        code: "CERTIFICATE_WRONG_ENVIRONMENT",
        message: "El certificado fue emitido por la AC del otro entorno",
        issuerEnvironment: "homologacion",
      },
    });

    // a pair generated elsewhere: the pending CSR is cancelled
    const outsideAlias = alias();
    const { keyFile, csrFile } = await opensslKeyAndCsr(dir, outside.cuit, outsideAlias);
    const outsidePem = await signCsr(stack, dir, "homologacion", readFileSync(csrFile, "utf8"));
    const withoutKey = await send(
      "POST",
      `/api/representadas/${outside.representadaId}/certificado`,
      owner.rw,
      { certificado: outsidePem },
    );
    expect(withoutKey.status).toBe(400);
    expect(withoutKey.json<ErrorBody>().code).toBe("CERTIFICATE_KEY_MISMATCH");
    const pair = await send(
      "POST",
      `/api/representadas/${outside.representadaId}/certificado`,
      owner.rw,
      { certificado: outsidePem, clavePrivada: readFileSync(keyFile, "utf8") },
    );
    expect(pair.status, pair.text).toBe(200);
    const after = (
      await send("GET", `/api/representadas/${outside.representadaId}`, owner.ro)
    ).json<Representada>();
    expect(after).toMatchObject({ csr: null, certificado: { estado: "activo" } });
  });

  it("probes a representative's certificate for a taxpayer that delegated nothing: the missing relation is named", async () => {
    const represented = await create("homologacion");
    const representative = randomCuit();
    const representativeAlias = alias();
    const { keyFile, csrFile } = await opensslKeyAndCsr(dir, representative, representativeAlias);
    const pem = await signCsr(stack, dir, "homologacion", readFileSync(csrFile, "utf8"));
    const pair = await send(
      "POST",
      `/api/representadas/${represented.representadaId}/certificado`,
      owner.rw,
      { certificado: pem, clavePrivada: readFileSync(keyFile, "utf8") },
    );
    expect(pair.status, pair.text).toBe(200);
    // the representative may use wsfe for itself only
    await control.delegate("homologacion", {
      cuit: representative,
      alias: representativeAlias,
      service: "wsfe",
    });
    const answer = await probe(represented.representadaId);
    expect(answer.servicios.find((s) => s.service === "wsfe")).toMatchObject({
      ok: false,
      code: "REPRESENTADA_NOT_DELEGATED",
      error: expect.stringContaining(
        `La CUIT ${represented.cuit} no delegó el servicio wsfe`,
      ) as string,
      fix: expect.stringContaining("Administrador de Relaciones de Clave Fiscal") as string,
    });
  });

  it("documents every representadas route in the OpenAPI document", async () => {
    const response = await fetch(`${stack.edgeUrl}/docs/json`);
    const { paths } = (await response.json()) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(paths["/api/representadas"] ?? {}).sort()).toEqual(["get", "post"]);
    expect(Object.keys(paths["/api/representadas/{id}"] ?? {}).sort()).toEqual(["get", "patch"]);
    expect(paths["/api/representadas/{id}/certificado"]).toHaveProperty("post");
    expect(paths["/api/representadas/{id}/probar"]).toHaveProperty("post");
  });

  it("answers 403 to a probe of a representada whose certificate is still pending", async () => {
    const pending = await create("homologacion");
    const answer = await send(
      "POST",
      `/api/representadas/${pending.representadaId}/probar`,
      owner.rw,
    );
    expect(answer.status, answer.text).toBe(403);
    expect(answer.json<ErrorBody>().code).toBe("NO_ACTIVE_CERTIFICATE");
  });

  describe("GET /api/wsfe/comprobantes", () => {
    interface Item {
      state: string;
      representada: string;
      ptoVta: number;
      cbteTipo: number;
      cbteNro: number;
      cbteFch: string;
      impTotal: number;
      cae: string | null;
      receptor: { docTipo: number; docNro: string };
      email: { to: string; status: string; error: string | null } | null;
      rechazo?: { code: number; msg: string }[];
    }
    interface Page {
      items: Item[];
      nextCursor: string | null;
    }
    const PTO_VTA = 4;
    let issuer: { cuit: string };

    /** AAAAMMDD in Argentina, `days` from today */
    const fecha = (days: number) =>
      new Date(Date.now() - 3 * 3_600_000 + days * 86_400_000)
        .toISOString()
        .slice(0, 10)
        .replaceAll("-", "");
    const issue = (precio: string, extra: Record<string, unknown> = {}) =>
      send("POST", "/api/wsfe/facturas", owner.rw, {
        environment: "homologacion",
        representada: issuer.cuit,
        ptoVta: PTO_VTA,
        cbteTipo: 11,
        concepto: 1,
        docTipo: 99,
        docNro: "0",
        condicionIvaReceptorId: 5,
        items: [{ descripcion: "Servicio", cantidad: 1, precioUnitario: precio, alicuotaIva: 0 }],
        ...extra,
      });
    const list = async (query: string, authorization = owner.ro) => {
      const answer = await send("GET", `/api/wsfe/comprobantes?${query}`, authorization);
      expect(answer.status, answer.text).toBe(200);
      return answer.json<Page>();
    };

    beforeAll(async () => {
      issuer = await register(stack, dir, {
        accountId: owner.accountId,
        environment: "homologacion",
        ptoVta: PTO_VTA,
        delegate: ["wsfe"],
        pos: [{ ptoVta: PTO_VTA, service: "wsfe" }],
      });
      for (const precio of ["100", "200", "300"]) {
        const issued = await issue(precio);
        expect(issued.status, issued.text).toBe(200);
      }
      // dated before the last one: the authority rejects it (10016)
      const rejected = await issue("400", { cbteFch: fecha(-2) });
      expect(rejected.status, rejected.text).toBe(422);
    });

    it("lists the account's vouchers newest first with their five fields, total and CAE", async () => {
      const all = await list(`environment=homologacion&representada=${issuer.cuit}`);
      expect(all.items.map((i) => i.state)).toEqual([
        "rejected",
        "authorized",
        "authorized",
        "authorized",
      ]);
      const authorized = all.items.filter((i) => i.state === "authorized");
      expect(authorized.map((i) => i.cbteNro)).toEqual([3, 2, 1]);
      expect(authorized[0]).toMatchObject({
        representada: issuer.cuit,
        ptoVta: PTO_VTA,
        cbteTipo: 11,
        impTotal: 300,
        receptor: { docTipo: 99, docNro: "0" },
      });
      expect(authorized.every((i) => /^\d{14}$/.test(i.cae ?? ""))).toBe(true);
      expect(all.items[0]).toMatchObject({ state: "rejected", cbteFch: fecha(-2), cae: null });
      // the attempt carries the authority's reasons; an authorized voucher has none to carry
      expect(all.items[0]!.rechazo).toEqual(
        expect.arrayContaining([
          { code: expect.any(Number) as number, msg: expect.any(String) as string },
        ]),
      );
      expect(authorized.map((i) => i.rechazo)).toEqual([undefined, undefined, undefined]);
    });

    it("answers impTotal with the same JSON type and value as the lookup of the same voucher", async () => {
      const { items } = await list(
        `environment=homologacion&representada=${issuer.cuit}&state=authorized`,
      );
      expect(items).toHaveLength(3);
      for (const item of items) {
        const lookup = await send("POST", "/api/wsfe/comprobante", owner.ro, {
          environment: "homologacion",
          representada: issuer.cuit,
          ptoVta: item.ptoVta,
          cbteTipo: item.cbteTipo,
          cbteNro: item.cbteNro,
        });
        expect(lookup.status, lookup.text).toBe(200);
        const found = lookup.json<{ found: boolean; impTotal: unknown }>();
        expect(found.found).toBe(true);
        expect(typeof item.impTotal, `cbteNro ${item.cbteNro}`).toBe("number");
        expect(typeof found.impTotal, `cbteNro ${item.cbteNro}`).toBe(typeof item.impTotal);
        expect(found.impTotal).toBe(item.impTotal);
      }
    });

    it("shows the e-mail of a voucher once it was sent by e-mail", async () => {
      const sent = await send("POST", "/api/wsfe/comprobantes/email", owner.rw, {
        environment: "homologacion",
        representada: issuer.cuit,
        ptoVta: PTO_VTA,
        cbteTipo: 11,
        cbteNro: 2,
        to: "cliente@example.com",
      });
      expect(sent.status, sent.text).toBe(202);
      const { items } = await list(
        `environment=homologacion&representada=${issuer.cuit}&state=authorized`,
      );
      const withEmail = items.map((i) => [i.cbteNro, i.email?.to ?? null]);
      expect(withEmail).toEqual([
        [3, null],
        [2, "cliente@example.com"],
        [1, null],
      ]);
      expect(["pending", "sent", "failed"]).toContain(items[1]!.email?.status);
    });

    it("filters by state, type, date and representada, and pages with the cursor", async () => {
      const base = `environment=homologacion&representada=${issuer.cuit}`;
      expect((await list(`${base}&state=rejected`)).items).toHaveLength(1);
      expect((await list(`${base}&cbteTipo=6`)).items).toHaveLength(0);
      expect((await list(`${base}&ptoVta=${PTO_VTA}`)).items).toHaveLength(4);
      expect((await list(`${base}&ptoVta=${PTO_VTA + 1}`)).items).toHaveLength(0);
      expect((await list(`${base}&desde=29991231`)).items).toHaveLength(0);
      const { cbteFch } = (await list(`${base}&state=authorized`)).items[0]!;
      expect((await list(`${base}&desde=${cbteFch}&hasta=${cbteFch}`)).items).toHaveLength(3);
      expect((await list(`${base}&hasta=${fecha(-1)}`)).items.map((i) => i.state)).toEqual([
        "rejected",
      ]);
      expect((await list(`environment=produccion&representada=${issuer.cuit}`)).items).toEqual([]);
      expect((await list(`environment=homologacion`, stranger.ro)).items).toEqual([]);

      const first = await list(`${base}&state=authorized&limit=2`);
      expect(first.items.map((i) => i.cbteNro)).toEqual([3, 2]);
      expect(first.nextCursor).not.toBeNull();
      const second = await list(
        `${base}&state=authorized&limit=2&cursor=${encodeURIComponent(first.nextCursor!)}`,
      );
      expect(second.items.map((i) => i.cbteNro)).toEqual([1]);
      expect(second.nextCursor).toBeNull();
    });

    it("answers 400 naming the parameter for a missing environment, an unsupported type and a foreign cursor", async () => {
      const cases: [string, string][] = [
        ["representada=20111111112", "environment"],
        ["environment=homologacion&cbteTipo=999", "cbteTipo"],
        ["environment=homologacion&desde=2026-01-01", "desde"],
        ["environment=homologacion&cursor=abc", "cursor"],
      ];
      for (const [query, field] of cases) {
        const answer = await send("GET", `/api/wsfe/comprobantes?${query}`, owner.ro);
        expect(answer.status, answer.text).toBe(400);
        expect(answer.json<ErrorBody>().error).toContain(field);
      }
    });
  });
});
