import { randomUUID } from "node:crypto";
import { connectBus, type Bus } from "@pasarela/bus";
import { catalog } from "@pasarela/contracts";
import { startTracing } from "@pasarela/telemetry";
import { capturingLogger, fileInfra, type FileInfra } from "@pasarela/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, startCatalog } from "../src/index.js";

describe("catalog service over the bus", () => {
  let infra: FileInfra;
  let client: Bus;
  let stop: () => Promise<void>;
  const { logger } = capturingLogger("catalog");

  beforeAll(async () => {
    infra = await fileInfra();
    const service = await startCatalog(
      loadConfig({
        NATS_URL: infra.natsUrl,
        NATS_PREFIX: infra.prefix,
        DATABASE_URL: infra.databaseUrl,
        CURSOR_KEY: "Y3Vyc29yLXRlc3Qta2V5LWN1cnNvci10ZXN0LWtleSE=",
      }),
      logger,
    );
    stop = service.stop;
    client = await connectBus({
      url: infra.natsUrl,
      prefix: infra.prefix,
      name: "test",
      logger,
      tracer: startTracing({ service: "test" }).tracer,
    });
  });

  afterAll(async () => {
    await client?.close();
    await stop?.();
    await infra?.cleanup();
  });

  const as = (accountId: string) => ({ accountId });

  it("stores a customer with nulls for what was not sent and answers it by id", async () => {
    const accountId = randomUUID();
    const created = await client.request(
      catalog.clienteCreate,
      { docTipo: 80, docNro: "20111111112", razonSocial: "  Juan Pérez  " },
      as(accountId),
    );
    if (!created.ok) throw new Error(created.error.message);
    expect(created.value).toMatchObject({
      docTipo: 80,
      docNro: "20111111112",
      razonSocial: "Juan Pérez",
      condicionIvaReceptorId: null,
      email: null,
      domicilio: null,
    });
    const got = await client.request(catalog.clienteGet, { id: created.value.id }, as(accountId));
    expect(got).toEqual({ ok: true, value: created.value });
  });

  it("resolves ids only within their account, and never for a malformed or missing account", async () => {
    const owner = randomUUID();
    const created = await client.request(
      catalog.productoCreate,
      { descripcion: "Hora de consultoría", precioUnitario: "15000.00" },
      as(owner),
    );
    if (!created.ok) throw new Error(created.error.message);
    const notFound = {
      ok: false,
      error: { code: "PRODUCTO_NOT_FOUND", message: "Producto no encontrado" },
    };
    expect(
      await client.request(catalog.productoGet, { id: created.value.id }, as(randomUUID())),
    ).toEqual(notFound);
    // a request that names no account is refused by the bus before the catalog looks
    expect(await client.request(catalog.productoGet, { id: created.value.id })).toEqual({
      ok: false,
      error: { code: "UNAUTHORIZED", message: "No autorizado" },
    });
    expect(await client.request(catalog.productoGet, { id: "not-a-uuid" }, as(owner))).toEqual(
      notFound,
    );
    expect(
      await client.request(
        catalog.productoUpdate,
        { id: created.value.id, changes: { descripcion: "x" } },
        as(randomUUID()),
      ),
    ).toEqual(notFound);
    expect(
      await client.request(catalog.productoDelete, { id: created.value.id }, as(randomUUID())),
    ).toEqual(notFound);
    expect(
      (await client.request(catalog.productoGet, { id: created.value.id }, as(owner))).ok,
    ).toBe(true);
  });

  it("checks the CUIT of the resulting document when a PATCH changes only one half", async () => {
    const accountId = randomUUID();
    const created = await client.request(
      catalog.clienteCreate,
      { docTipo: 96, docNro: "12345678", razonSocial: "Ana" },
      as(accountId),
    );
    if (!created.ok) throw new Error(created.error.message);
    const toCuit = await client.request(
      catalog.clienteUpdate,
      { id: created.value.id, changes: { docTipo: 80 } },
      as(accountId),
    );
    expect(toCuit).toMatchObject({
      ok: false,
      error: { code: "INVALID_FIELD", details: { field: "docNro" } },
    });
    const both = await client.request(
      catalog.clienteUpdate,
      { id: created.value.id, changes: { docTipo: 80, docNro: "27111111115" } },
      as(accountId),
    );
    // 27111111115: Σ = 2·5+7·4+1·(3+2+7+6+5+4+3+2) = 70, 70 mod 11 = 4, 11 − 4 = 7 ≠ 5
    expect(both).toMatchObject({
      ok: false,
      error: { code: "INVALID_FIELD", details: { field: "docNro" } },
    });
    const valid = await client.request(
      catalog.clienteUpdate,
      { id: created.value.id, changes: { docTipo: 80, docNro: "30000000007" } },
      as(accountId),
    );
    expect(valid).toMatchObject({
      ok: true,
      value: { docTipo: 80, docNro: "30000000007", razonSocial: "Ana" },
    });
  });

  it("keeps prices as the exact decimal that was sent, as text or as a JSON number", async () => {
    const accountId = randomUUID();
    // up to 15 significant digits: each answers as a JSON number that prints back the same
    for (const [sent, kept] of [
      ["1210.50", "1210.5"],
      [1210.5, "1210.5"],
      ["0.000001", "0.000001"],
      ["999999999999.999", "999999999999.999"],
      ["999999999.999999", "999999999.999999"],
      [0.1, "0.1"],
      ["0", "0"],
    ] as const) {
      const created = await client.request(
        catalog.productoCreate,
        { descripcion: "p", precioUnitario: sent, alicuotaIva: 10.5 },
        as(accountId),
      );
      expect(created).toMatchObject({
        ok: true,
        value: { precioUnitario: kept, alicuotaIva: 10.5 },
      });
    }
    const tooPrecise = await client.request(
      catalog.productoCreate,
      { descripcion: "p", precioUnitario: "999999999999.999999" },
      as(accountId),
    );
    expect(tooPrecise).toMatchObject({
      ok: false,
      error: { code: "INVALID_FIELD", details: { field: "precioUnitario" } },
    });
  });

  it("drops leading zeros so one document cannot be stored twice", async () => {
    const accountId = randomUUID();
    const first = await client.request(
      catalog.clienteCreate,
      { docTipo: 96, docNro: "01234567", razonSocial: "A" },
      as(accountId),
    );
    expect(first).toMatchObject({ ok: true, value: { docNro: "1234567" } });
    const second = await client.request(
      catalog.clienteCreate,
      { docTipo: 96, docNro: "1234567", razonSocial: "B" },
      as(accountId),
    );
    expect(second).toMatchObject({ ok: false, error: { code: "CLIENTE_DUPLICATE" } });
  });

  it("pages with cursors that name only the caller's own records, and refuses another account's", async () => {
    const [owner, other] = [randomUUID(), randomUUID()];
    const producto = (descripcion: string, accountId: string) =>
      client.request(catalog.productoCreate, { descripcion, precioUnitario: "1" }, as(accountId));
    // the other account writes between the owner's records: the owner's cursors must not
    // tell how many (a shared sequence would)
    for (const [descripcion, accountId] of [
      ["a1", owner],
      ["b1", other],
      ["b2", other],
      ["a2", owner],
      ["b3", other],
      ["a3", owner],
    ] as const) {
      expect((await producto(descripcion, accountId)).ok).toBe(true);
    }
    const list = (accountId: string, cursor?: string) =>
      client.request(
        catalog.productoList,
        { limit: 1, ...(cursor ? { cursor } : {}) },
        as(accountId),
      );

    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await list(owner, cursor);
      if (!page.ok) throw new Error(page.error.message);
      seen.push(...page.value.items.map((p) => p.descripcion));
      if (page.value.nextCursor === null) break;
      // opaque: the id of the last record is not readable in it
      const last = page.value.items.at(-1)!;
      expect(page.value.nextCursor).not.toContain(last.id);
      expect(Buffer.from(page.value.nextCursor, "base64url").toString("latin1")).not.toContain(
        last.id,
      );
      cursor = page.value.nextCursor;
    }
    expect(seen).toEqual(["a1", "a2", "a3"]);

    const otherFirst = await list(other);
    if (!otherFirst.ok || !otherFirst.value.nextCursor) throw new Error("expected a next page");
    const refused = {
      ok: false,
      error: { code: "INVALID_FIELD", details: { field: "cursor" } },
    };
    // another account's cursor, and one made from another account's record id: same 400
    expect(await list(owner, otherFirst.value.nextCursor)).toMatchObject(refused);
    const forged = Buffer.from(`r1:${otherFirst.value.items[0]!.id}`).toString("base64url");
    expect(await list(owner, forged)).toMatchObject(refused);
    // the same list under other filters is another list
    const filtered = await client.request(
      catalog.productoList,
      { limit: 1, q: "b", cursor: otherFirst.value.nextCursor },
      as(other),
    );
    expect(filtered).toMatchObject(refused);
    // a products cursor is no customers cursor
    const clientes = await client.request(
      catalog.clienteList,
      { limit: 1, cursor: otherFirst.value.nextCursor },
      as(other),
    );
    expect(clientes).toMatchObject(refused);
  });

  it("keeps paging after the record a cursor names is deleted", async () => {
    const owner = randomUUID();
    const ids: string[] = [];
    for (const descripcion of ["x1", "x2", "x3"]) {
      const created = await client.request(
        catalog.productoCreate,
        { descripcion, precioUnitario: "1" },
        as(owner),
      );
      if (!created.ok) throw new Error(created.error.message);
      ids.push(created.value.id);
    }
    const first = await client.request(catalog.productoList, { limit: 1 }, as(owner));
    if (!first.ok || !first.value.nextCursor) throw new Error("expected a next page");
    expect((await client.request(catalog.productoDelete, { id: ids[0]! }, as(owner))).ok).toBe(
      true,
    );
    const next = await client.request(
      catalog.productoList,
      { limit: 5, cursor: first.value.nextCursor },
      as(owner),
    );
    if (!next.ok) throw new Error(next.error.message);
    expect(next.value.items.map((p) => p.descripcion)).toEqual(["x2", "x3"]);
  });

  it("refuses a cursor it never issued, naming the field", async () => {
    const listed = await client.request(catalog.clienteList, { cursor: "abc" }, as(randomUUID()));
    expect(listed).toMatchObject({
      ok: false,
      error: { code: "INVALID_FIELD", details: { field: "cursor" } },
    });
  });
});
