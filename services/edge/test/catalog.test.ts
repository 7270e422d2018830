import { randomUUID } from "node:crypto";
import { connectBus, type Bus } from "@pasarela/bus";
import { loadConfig as loadBillingConfig, startBilling } from "@pasarela/billing";
import { loadConfig as loadCatalogConfig, startCatalog } from "@pasarela/catalog";
import { billing } from "@pasarela/contracts";
import { startTracing } from "@pasarela/telemetry";
import { capturingLogger, fileInfra, type FileInfra } from "@pasarela/testing";
import type { Subscription } from "@nats-io/nats-core";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type EdgeApp } from "../src/index.js";

interface ErrorBody {
  error: string;
  code: string;
  details?: Record<string, unknown>;
}
interface Cliente {
  id: string;
  docTipo: number;
  docNro: string;
  razonSocial: string;
  condicionIvaReceptorId: number | null;
  email: string | null;
  domicilio: string | null;
  createdAt: string;
  updatedAt: string;
}
interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

const READ_ONLY = "Esta API key es de solo lectura y no puede modificar datos de la cuenta.";

describe("edge: /api/clientes and /api/productos", () => {
  let infra: FileInfra;
  let client: Bus;
  let edgeBus: Bus;
  let edge: EdgeApp;
  let sql: postgres.Sql;
  let catalogRequests: Subscription;
  let catalogRequestCount = 0;
  const stops: (() => Promise<void>)[] = [];
  const { logger } = capturingLogger("test");
  const { tracer } = startTracing({ service: "test" });

  beforeAll(async () => {
    infra = await fileInfra();
    const common = {
      NATS_URL: infra.natsUrl,
      NATS_PREFIX: infra.prefix,
      DATABASE_URL: infra.databaseUrl,
      CURSOR_KEY: "Y3Vyc29yLXRlc3Qta2V5LWN1cnNvci10ZXN0LWtleSE=",
    };
    const billingService = await startBilling(
      loadBillingConfig({ ...common, API_KEY_PEPPER: "catalog-test-pepper-catalog-test-pepper" }),
      logger,
    );
    stops.push(billingService.stop);
    const catalogService = await startCatalog(loadCatalogConfig(common), logger);
    stops.push(catalogService.stop);
    const options = { url: infra.natsUrl, prefix: infra.prefix, tracer, logger };
    client = await connectBus({ ...options, name: "test" });
    edgeBus = await connectBus({ ...options, name: "edge" });
    edge = await buildApp({ bus: edgeBus, logger, tracer });
    // a plain (non-queue) subscriber sees every request sent to the catalog service
    catalogRequests = client.connection.subscribe(`${infra.prefix}.catalog.>`, {
      callback: () => {
        catalogRequestCount++;
      },
    });
    await client.connection.flush();
    sql = postgres(infra.databaseUrl, { max: 2, onnotice: () => {} });
  });

  afterAll(async () => {
    catalogRequests?.unsubscribe();
    await sql?.end({ timeout: 2 });
    await edge?.close();
    await edgeBus?.close();
    await client?.close();
    for (const stop of stops.reverse()) await stop();
    await infra?.cleanup();
  });

  async function newAccount() {
    const account = await client.request(billing.accountCreate, { name: "Comercio" });
    if (!account.ok) throw new Error(account.error.message);
    const keyOf = async (scope: "read_only" | "read_write") => {
      const key = await client.request(billing.keyCreate, {
        accountId: account.value.accountId,
        scope,
      });
      if (!key.ok) throw new Error(key.error.message);
      return `Bearer ${key.value.secret}`;
    };
    return {
      accountId: account.value.accountId,
      rw: await keyOf("read_write"),
      ro: await keyOf("read_only"),
    };
  }

  const send = (
    method: "GET" | "POST" | "PATCH" | "DELETE",
    url: string,
    auth: string,
    payload?: unknown,
  ) =>
    edge.app.inject({
      method,
      url,
      headers: { authorization: auth },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  async function createCliente(auth: string, body: Record<string, unknown>): Promise<Cliente> {
    const response = await send("POST", "/api/clientes", auth, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Cliente>();
  }

  describe("customers", () => {
    it("creates, reads, updates (null clears), lists and logically deletes a customer", async () => {
      const { rw } = await newAccount();
      const created = await createCliente(rw, {
        docTipo: 80,
        docNro: "20111111112",
        razonSocial: "Juan Pérez",
        condicionIvaReceptorId: 1,
        email: "juan@example.com",
        domicilio: "Av. Siempreviva 742, CABA",
      });
      expect(created).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/) as string,
        docTipo: 80,
        docNro: "20111111112",
        razonSocial: "Juan Pérez",
        condicionIvaReceptorId: 1,
        email: "juan@example.com",
        domicilio: "Av. Siempreviva 742, CABA",
        createdAt: expect.any(String) as string,
        updatedAt: created.createdAt,
      });
      const got = await send("GET", `/api/clientes/${created.id}`, rw);
      expect(got.statusCode).toBe(200);
      expect(got.json()).toEqual(created);

      const patched = await send("PATCH", `/api/clientes/${created.id}`, rw, {
        email: null,
        razonSocial: "Juan Pérez SRL",
      });
      expect(patched.statusCode).toBe(200);
      const updated = patched.json<Cliente>();
      expect(updated).toMatchObject({
        razonSocial: "Juan Pérez SRL",
        email: null,
        domicilio: "Av. Siempreviva 742, CABA",
        condicionIvaReceptorId: 1,
        createdAt: created.createdAt,
      });
      expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));

      const deleted = await send("DELETE", `/api/clientes/${created.id}`, rw);
      expect(deleted.statusCode).toBe(204);
      expect(deleted.body).toBe("");
      expect((await send("GET", `/api/clientes/${created.id}`, rw)).statusCode).toBe(404);
      expect(
        (await send("PATCH", `/api/clientes/${created.id}`, rw, { razonSocial: "X" })).statusCode,
      ).toBe(404);
      expect((await send("DELETE", `/api/clientes/${created.id}`, rw)).statusCode).toBe(404);
      const list = await send("GET", "/api/clientes", rw);
      expect(list.json<Page<Cliente>>().items).toEqual([]);
    });

    it("answers 409 for a document already held by a live customer, on create and on PATCH", async () => {
      const { rw } = await newAccount();
      await createCliente(rw, { docTipo: 96, docNro: "30123456", razonSocial: "Ana" });
      const again = await send("POST", "/api/clientes", rw, {
        docTipo: 96,
        docNro: "30123456",
        razonSocial: "Otra Ana",
      });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({
        error: "Ya tenés un cliente con ese documento",
        code: "CLIENTE_DUPLICATE",
      });
      // the same number under another type is another document
      const other = await createCliente(rw, { docTipo: 89, docNro: "30123456", razonSocial: "B" });
      const renamed = await send("PATCH", `/api/clientes/${other.id}`, rw, { docTipo: 96 });
      expect(renamed.statusCode).toBe(409);
      expect(renamed.json<ErrorBody>().error).toBe("Ya tenés un cliente con ese documento");
      // a PATCH that keeps its own document is not a collision with itself
      const same = await send("PATCH", `/api/clientes/${other.id}`, rw, { docNro: "30123456" });
      expect(same.statusCode).toBe(200);
    });

    it("lets two accounts hold the same document, and a deleted customer's document be reused", async () => {
      const first = await newAccount();
      const second = await newAccount();
      const body = { docTipo: 86, docNro: "20111111112", razonSocial: "Compartido" };
      const mine = await createCliente(first.rw, body);
      await createCliente(second.rw, body);
      expect((await send("DELETE", `/api/clientes/${mine.id}`, first.rw)).statusCode).toBe(204);
      const reborn = await createCliente(first.rw, body);
      expect(reborn.id).not.toBe(mine.id);
      expect((await send("GET", `/api/clientes/${mine.id}`, first.rw)).statusCode).toBe(404);
      // listing by the document finds only the live customer, never the deleted one
      const list = await send("GET", "/api/clientes?docTipo=86&docNro=20111111112", first.rw);
      expect(list.json<Page<Cliente>>().items.map((c) => c.id)).toEqual([reborn.id]);
    });

    it("gives exactly one 201 and 49 409s to 50 simultaneous creates of one document", async () => {
      const { rw } = await newAccount();
      const body = { docTipo: 80, docNro: "30000000007", razonSocial: "Carrera SA" };
      const responses = await Promise.all(
        Array.from({ length: 50 }, () => send("POST", "/api/clientes", rw, body)),
      );
      const statuses = responses.map((r) => r.statusCode);
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(49);
      const list = await send("GET", "/api/clientes?docTipo=80&docNro=30000000007", rw);
      expect(list.json<Page<Cliente>>().items).toHaveLength(1);
    });

    it("pages with limit and an opaque cursor, without repeating or skipping", async () => {
      const { rw } = await newAccount();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const c = await createCliente(rw, {
          docTipo: 96,
          docNro: String(40_000_000 + i),
          razonSocial: `C${i}`,
        });
        ids.push(c.id);
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const url: string = `/api/clientes?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
        const response = await send("GET", url, rw);
        expect(response.statusCode).toBe(200);
        const page = response.json<Page<Cliente>>();
        expect(page.items.length).toBeLessThanOrEqual(2);
        seen.push(...page.items.map((c) => c.id));
        cursor = page.nextCursor;
        pages++;
      } while (cursor !== null);
      expect(pages).toBe(3);
      expect(seen).toEqual(ids);
      const all = await send("GET", "/api/clientes", rw);
      expect(all.json<Page<Cliente>>()).toMatchObject({ nextCursor: null });
      expect(all.json<Page<Cliente>>().items).toHaveLength(5);
      const exact = await send("GET", "/api/clientes?limit=5", rw);
      expect(exact.json<Page<Cliente>>().nextCursor).toBeNull();
    });

    it("filters by document and searches the name ignoring case and accents", async () => {
      const { rw } = await newAccount();
      const munoz = await createCliente(rw, {
        docTipo: 96,
        docNro: "11111111",
        razonSocial: "Muñoz Pérez",
      });
      const other = await createCliente(rw, {
        docTipo: 96,
        docNro: "22222222",
        razonSocial: "ÁLVAREZ 100% SA",
      });
      const ids = async (query: string) =>
        (await send("GET", `/api/clientes?${query}`, rw))
          .json<Page<Cliente>>()
          .items.map((c) => c.id);
      expect(await ids("q=munoz")).toEqual([munoz.id]);
      expect(await ids("q=PEREZ")).toEqual([munoz.id]);
      expect(await ids("q=alvarez")).toEqual([other.id]);
      expect(await ids(`q=${encodeURIComponent("100%")}`)).toEqual([other.id]);
      expect(await ids(`q=${encodeURIComponent("%")}`)).toEqual([other.id]);
      expect(await ids("q=zzz")).toEqual([]);
      expect(await ids("docNro=22222222")).toEqual([other.id]);
      expect(await ids("docTipo=96&docNro=011111111")).toEqual([munoz.id]);
      expect(await ids("docTipo=80")).toEqual([]);
    });

    describe("validation: 400 naming the field", () => {
      let rw: string;
      beforeAll(async () => {
        rw = (await newAccount()).rw;
      });
      const valid = { docTipo: 80, docNro: "20111111112", razonSocial: "Válido" };
      it.each([
        ["unknown docTipo", { ...valid, docTipo: 15 }, "docTipo", "Tipos aceptados"],
        ["docTipo as text", { ...valid, docTipo: "80" }, "docTipo", "Tipos aceptados"],
        ["docNro with hyphens", { ...valid, docNro: "20-11111111-2" }, "docNro", "dígitos"],
        ["docNro as a number", { ...valid, docNro: 20111111112 }, "docNro", "dígitos"],
        ["CUIT with a wrong check digit", { ...valid, docNro: "20111111113" }, "docNro", "CUIT"],
        ["CUIT too short", { ...valid, docNro: "2011111111" }, "docNro", "CUIT"],
        [
          "CUIL with a wrong check digit",
          { ...valid, docTipo: 86, docNro: "20111111111" },
          "docNro",
          "CUIL",
        ],
        [
          "unknown condicionIvaReceptorId",
          { ...valid, condicionIvaReceptorId: 3 },
          "condicionIvaReceptorId",
          "1, 4, 5",
        ],
        ["bad e-mail", { ...valid, email: "juan@" }, "email", "e-mail"],
        [
          "razonSocial missing",
          { docTipo: 80, docNro: "20111111112" },
          "razonSocial",
          "obligatorio",
        ],
        ["razonSocial blank", { ...valid, razonSocial: "   " }, "razonSocial", "vacío"],
        [
          "an unknown field",
          { ...valid, cuit: "20111111112" },
          "cuit",
          "no existe en esta operación",
        ],
        [
          "environment without autocompletar",
          { ...valid, environment: "homologacion" },
          "environment",
          "solo se usa con autocompletar: true",
        ],
        [
          "a malformed representada without autocompletar",
          { ...valid, representada: "1" },
          "representada",
          "exactamente 11 dígitos",
        ],
        [
          "autocompletar as text",
          { ...valid, autocompletar: "sí" },
          "autocompletar",
          "true o false",
        ],
        [
          "autocompletar without environment",
          { docTipo: 80, docNro: "20111111112", autocompletar: true, representada: "20111111112" },
          "environment",
          "es obligatorio con autocompletar",
        ],
        [
          "autocompletar with a DNI",
          {
            docTipo: 96,
            docNro: "28333444",
            autocompletar: true,
            environment: "homologacion",
            representada: "20111111112",
          },
          "docTipo",
          "debe ser 80 (CUIT) u 86 (CUIL) para autocompletar desde el padrón",
        ],
      ])("%s", async (_name, body, field, mentions) => {
        const response = await send("POST", "/api/clientes", rw, body);
        expect(response.statusCode, response.body).toBe(400);
        const error = response.json<ErrorBody>();
        expect(error.code).toBe("INVALID_FIELD");
        expect(error.error).toContain(`El campo ${field}`);
        expect(error.error).toContain(mentions);
      });

      it("refuses an empty PATCH, a null required field and an unknown field", async () => {
        const c = await createCliente(rw, { docTipo: 96, docNro: "5555555", razonSocial: "P" });
        for (const [body, mentions] of [
          [{}, "al menos un campo"],
          [{ razonSocial: null }, "razonSocial"],
          [{ docNro: null }, "docNro"],
          [{ id: randomUUID() }, "id"],
        ] as const) {
          const response = await send("PATCH", `/api/clientes/${c.id}`, rw, body);
          expect(response.statusCode, JSON.stringify(body)).toBe(400);
          expect(response.json<ErrorBody>().error).toContain(mentions);
        }
      });

      it("checks the CUIT against the stored half when a PATCH changes only docTipo", async () => {
        const c = await createCliente(rw, { docTipo: 96, docNro: "5555556", razonSocial: "Q" });
        const response = await send("PATCH", `/api/clientes/${c.id}`, rw, { docTipo: 80 });
        expect(response.statusCode).toBe(400);
        expect(response.json<ErrorBody>().error).toContain("El campo docNro no es una CUIT válida");
      });

      it.each([
        ["limit=0", "limit"],
        ["limit=101", "limit"],
        ["limit=abc", "limit"],
        ["cursor=nope", "cursor"],
        ["docTipo=15", "docTipo"],
        ["orden=nombre", "orden"],
      ])("list query %s", async (query, field) => {
        const response = await send("GET", `/api/clientes?${query}`, rw);
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json<ErrorBody>().error).toContain(field);
      });
    });
  });

  describe("products", () => {
    it("answers the exact price as a JSON number and clears optional fields with null", async () => {
      const { rw } = await newAccount();
      const created = await send("POST", "/api/productos", rw, {
        codigo: "SKU-1",
        descripcion: "Yerba mate 1 kg",
        precioUnitario: "1210.50",
        alicuotaIva: 21,
        unidadMedida: "unidad",
      });
      expect(created.statusCode).toBe(201);
      const producto = created.json<Record<string, unknown>>();
      expect(producto).toMatchObject({
        codigo: "SKU-1",
        descripcion: "Yerba mate 1 kg",
        precioUnitario: 1210.5,
        alicuotaIva: 21,
        unidadMedida: "unidad",
      });
      const precise = await send("PATCH", `/api/productos/${String(producto.id)}`, rw, {
        precioUnitario: "0.123456",
        alicuotaIva: null,
        codigo: null,
      });
      expect(precise.statusCode).toBe(200);
      expect(precise.json()).toMatchObject({
        precioUnitario: 0.123456,
        alicuotaIva: null,
        codigo: null,
      });
      // a price sent back as the JSON number it was answered as is taken as that decimal
      const asAnswered = await send("PATCH", `/api/productos/${String(producto.id)}`, rw, {
        precioUnitario: 0.123456,
      });
      expect(asAnswered.statusCode).toBe(200);
      expect(asAnswered.json()).toMatchObject({ precioUnitario: 0.123456 });
      const half = await send("PATCH", `/api/productos/${String(producto.id)}`, rw, {
        alicuotaIva: 10.5,
      });
      expect(half.json()).toMatchObject({ alicuotaIva: 10.5, unidadMedida: "unidad" });
      // descriptions need not be unique; alicuotaIva may be left out when stored
      const twin = await send("POST", "/api/productos", rw, {
        descripcion: "Yerba mate 1 kg",
        precioUnitario: "1000",
      });
      expect(twin.statusCode).toBe(201);
      expect(twin.json()).toMatchObject({ alicuotaIva: null, codigo: null, unidadMedida: null });
      const search = await send("GET", "/api/productos?q=YERBA", rw);
      expect(search.json<Page<unknown>>().items).toHaveLength(2);
      // the list answers the price with the same type and value as the product itself
      expect(
        search.json<Page<{ precioUnitario: unknown }>>().items.map((p) => p.precioUnitario),
      ).toEqual([0.123456, 1000]);
      const widest = await send("PATCH", `/api/productos/${String(producto.id)}`, rw, {
        precioUnitario: "123456789.123456",
      });
      expect(widest.statusCode).toBe(200);
      expect(widest.body).toContain('"precioUnitario":123456789.123456,');
      const byCode = await send("GET", "/api/productos?q=sku", rw);
      expect(byCode.json<Page<unknown>>().items).toHaveLength(0);
      expect((await send("DELETE", `/api/productos/${String(producto.id)}`, rw)).statusCode).toBe(
        204,
      );
      expect((await send("GET", `/api/productos/${String(producto.id)}`, rw)).statusCode).toBe(404);
    });

    it("answers 400 listing the accepted VAT rates", async () => {
      const { rw } = await newAccount();
      for (const alicuotaIva of [3, 10, "21", -21]) {
        const response = await send("POST", "/api/productos", rw, {
          descripcion: "x",
          precioUnitario: "1",
          alicuotaIva,
        });
        expect(response.statusCode).toBe(400);
        const error = response.json<ErrorBody>();
        expect(error.code).toBe("INVALID_FIELD");
        expect(error.error).toContain("El campo alicuotaIva");
        expect(error.error).toContain("Alícuotas aceptadas: 0, 2.5, 5, 10.5, 21, 27");
      }
    });

    it.each([
      ["a comma", "1210,50"],
      ["seven decimals", "1.1234567"],
      ["a negative price", "-1"],
      ["an exponent", "1e3"],
      ["more significant digits than a JSON number holds", "123456789012.123456"],
    ])("refuses a price given as %s", async (_name, precioUnitario) => {
      const { rw } = await newAccount();
      const response = await send("POST", "/api/productos", rw, {
        descripcion: "x",
        precioUnitario,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json<ErrorBody>().error).toContain("El campo precioUnitario");
    });

    it("pages products too", async () => {
      const { rw } = await newAccount();
      for (let i = 0; i < 3; i++) {
        await send("POST", "/api/productos", rw, { descripcion: `P${i}`, precioUnitario: "1" });
      }
      const first = (await send("GET", "/api/productos?limit=2", rw)).json<
        Page<{ descripcion: string }>
      >();
      expect(first.items.map((p) => p.descripcion)).toEqual(["P0", "P1"]);
      const second = (
        await send(
          "GET",
          `/api/productos?limit=2&cursor=${encodeURIComponent(first.nextCursor!)}`,
          rw,
        )
      ).json<Page<{ descripcion: string }>>();
      expect(second).toEqual({
        items: [expect.objectContaining({ descripcion: "P2" })],
        nextCursor: null,
      });
    });
  });

  it("answers one identical 404 for missing, other account's, deleted and malformed ids", async () => {
    const owner = await newAccount();
    const stranger = await newAccount();
    const cliente = await createCliente(owner.rw, {
      docTipo: 96,
      docNro: "7777777",
      razonSocial: "Z",
    });
    const deletedCliente = await createCliente(owner.rw, {
      docTipo: 96,
      docNro: "7777778",
      razonSocial: "Y",
    });
    await send("DELETE", `/api/clientes/${deletedCliente.id}`, owner.rw);
    const producto = (
      await send("POST", "/api/productos", owner.rw, { descripcion: "p", precioUnitario: "1" })
    ).json<{ id: string }>();
    const deletedProducto = (
      await send("POST", "/api/productos", owner.rw, { descripcion: "q", precioUnitario: "1" })
    ).json<{ id: string }>();
    await send("DELETE", `/api/productos/${deletedProducto.id}`, owner.rw);

    const cases = [
      [
        "clientes",
        "Cliente no encontrado",
        "CLIENTE_NOT_FOUND",
        { razonSocial: "W" },
        [
          [stranger.rw, cliente.id],
          [owner.rw, randomUUID()],
          [owner.rw, deletedCliente.id],
          [owner.rw, "123"],
          [owner.rw, "not-a-uuid"],
        ],
      ],
      [
        "productos",
        "Producto no encontrado",
        "PRODUCTO_NOT_FOUND",
        { descripcion: "W" },
        [
          [stranger.rw, producto.id],
          [owner.rw, randomUUID()],
          [owner.rw, deletedProducto.id],
          [owner.rw, "123"],
        ],
      ],
    ] as const;
    for (const [resource, message, code, patch, ids] of cases) {
      for (const [auth, id] of ids) {
        for (const [method, body] of [["GET"], ["PATCH", patch], ["DELETE"]] as const) {
          const response = await send(method, `/api/${resource}/${id}`, auth, body);
          expect(response.statusCode, `${method} ${resource}/${id}`).toBe(404);
          expect(response.json()).toEqual({ error: message, code });
        }
      }
    }
    // the stranger's attempts changed nothing
    expect((await send("GET", `/api/clientes/${cliente.id}`, owner.rw)).json()).toEqual(cliente);
    expect((await send("GET", `/api/productos/${producto.id}`, owner.rw)).statusCode).toBe(200);
  });

  it("lets a read_only key read, and refuses each write with 403 before the catalog is asked", async () => {
    const { rw, ro } = await newAccount();
    const cliente = await createCliente(rw, { docTipo: 96, docNro: "8888888", razonSocial: "R" });
    const producto = (
      await send("POST", "/api/productos", rw, { descripcion: "p", precioUnitario: "1" })
    ).json<{ id: string }>();
    expect((await send("GET", "/api/clientes", ro)).statusCode).toBe(200);
    expect((await send("GET", `/api/clientes/${cliente.id}`, ro)).statusCode).toBe(200);
    expect((await send("GET", "/api/productos", ro)).statusCode).toBe(200);
    expect((await send("GET", `/api/productos/${producto.id}`, ro)).statusCode).toBe(200);

    const count = async () => {
      const [row] = await sql<{ n: string }[]>`
        select (select count(*) from catalog.clientes) + (select count(*) from catalog.productos)
          + (select count(*) from catalog.clientes where deleted_at is not null) as n`;
      return row!.n;
    };
    const rowsBefore = await count();
    await client.connection.flush();
    const requestsBefore = catalogRequestCount;
    const writes = [
      ["POST", "/api/clientes", { docTipo: 96, docNro: "9999999", razonSocial: "S" }],
      ["PATCH", `/api/clientes/${cliente.id}`, { razonSocial: "Cambiado" }],
      ["DELETE", `/api/clientes/${cliente.id}`, undefined],
      ["POST", "/api/productos", { descripcion: "x", precioUnitario: "1" }],
      ["PATCH", `/api/productos/${producto.id}`, { descripcion: "Cambiado" }],
      ["DELETE", `/api/productos/${producto.id}`, undefined],
      // refused even when the body is invalid or the id unknown: nothing else is looked at
      ["POST", "/api/clientes", { nada: true }],
      ["DELETE", `/api/clientes/${randomUUID()}`, undefined],
    ] as const;
    for (const [method, url, body] of writes) {
      const response = await send(method, url, ro, body);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json()).toEqual({ error: READ_ONLY, code: "READ_ONLY_KEY" });
    }
    await client.connection.flush();
    expect(catalogRequestCount).toBe(requestsBefore);
    expect(await count()).toBe(rowsBefore);
    expect((await send("GET", `/api/clientes/${cliente.id}`, ro)).json()).toEqual(cliente);
  });

  it("documents every catalog route and its shapes in the OpenAPI document", async () => {
    const response = await edge.app.inject({ method: "GET", url: "/docs/json" });
    const document = response.json<{
      paths: Record<
        string,
        Record<
          string,
          {
            summary?: string;
            responses: Record<string, unknown>;
            requestBody?: {
              content: { "application/json": { schema: { oneOf?: { required: string[] }[] } } };
            };
          }
        >
      >;
      components?: unknown;
    }>();
    expect(Object.keys(document.paths["/api/clientes"]!).sort()).toEqual(["get", "post"]);
    expect(Object.keys(document.paths["/api/clientes/{id}"]!).sort()).toEqual([
      "delete",
      "get",
      "patch",
    ]);
    expect(Object.keys(document.paths["/api/productos"]!).sort()).toEqual(["get", "post"]);
    expect(Object.keys(document.paths["/api/productos/{id}"]!).sort()).toEqual([
      "delete",
      "get",
      "patch",
    ]);
    const post = document.paths["/api/clientes"]!.post!;
    expect(post.summary).toBeTruthy();
    // 402, 404 and 502 come from the registry lookup of autocompletar
    expect(Object.keys(post.responses).sort()).toEqual([
      "201",
      "400",
      "402",
      "403",
      "404",
      "409",
      "502",
    ]);
    const text = JSON.stringify(document);
    for (const field of [
      "docTipo",
      "docNro",
      "razonSocial",
      "condicionIvaReceptorId",
      "precioUnitario",
      "alicuotaIva",
      "unidadMedida",
      "nextCursor",
      "autocompletar",
    ]) {
      expect(text).toContain(field);
    }
    // the two forms of a new customer, each with what it requires
    const forms = post.requestBody?.content["application/json"].schema.oneOf ?? [];
    expect(forms.map((form) => [...form.required].sort())).toEqual([
      ["docNro", "docTipo", "razonSocial"],
      ["autocompletar", "docNro", "docTipo", "environment", "representada"],
    ]);
    expect(text).toContain('"enum":[0,2.5,5,10.5,21,27]');
    expect(text).toContain('"enum":[1,4,5,6,7,8,9,10,13,15,16]');
  });
});
