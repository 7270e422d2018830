import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http, newAccount, randomCuit, type Account } from "../support/operator.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";

interface Page<T> {
  items: T[];
  nextCursor: string | null;
}
interface Cliente {
  id: string;
  docTipo: number;
  docNro: string;
  razonSocial: string;
}
interface Producto {
  id: string;
  descripcion: string;
  precioUnitario: number;
  alicuotaIva: number | null;
}

const READ_ONLY = "Esta API key es de solo lectura y no puede modificar datos de la cuenta.";

describe("catalog end to end: /api/clientes and /api/productos over real processes", () => {
  let stack: E2EStack;
  let owner: Account;
  let stranger: Account;

  beforeAll(async () => {
    stack = await startE2EStack({ env: { LOG_LEVEL: "info" } });
    [owner, stranger] = await Promise.all([
      newAccount(stack, "Almacén"),
      newAccount(stack, "Otro comercio"),
    ]);
  });

  afterAll(async () => {
    await stack?.teardown();
  });

  const send = (
    method: "GET" | "POST" | "PATCH" | "DELETE",
    path: string,
    authorization: string,
    body?: unknown,
  ) => http(stack, method, path, authorization, body);

  it("creates a customer and a product, reads them back, and keeps the price as exact decimal text", async () => {
    const cuit = randomCuit("30");
    const cliente = await send("POST", "/api/clientes", owner.rw, {
      docTipo: 80,
      docNro: cuit,
      razonSocial: "Distribuidora del Sur SA",
      condicionIvaReceptorId: 1,
      email: "compras@example.com",
      domicilio: "Av. Belgrano 100, CABA",
    });
    expect(cliente.status, cliente.text).toBe(201);
    const { id } = cliente.json<Cliente>();
    const read = await send("GET", `/api/clientes/${id}`, owner.ro);
    expect(read.status).toBe(200);
    expect(read.json()).toMatchObject({
      id,
      docTipo: 80,
      docNro: cuit,
      email: "compras@example.com",
    });

    const producto = await send("POST", "/api/productos", owner.rw, {
      codigo: "SKU-1",
      descripcion: "Yerba mate 1 kg",
      precioUnitario: "1210.10",
      alicuotaIva: 21,
      unidadMedida: "unidad",
    });
    expect(producto.status, producto.text).toBe(201);
    const created = producto.json<Producto>();
    const patched = await send("PATCH", `/api/productos/${created.id}`, owner.rw, {
      precioUnitario: "0.1",
    });
    expect(patched.status, patched.text).toBe(200);
    const back = await send("GET", `/api/productos/${created.id}`, owner.rw);
    expect(back.json()).toMatchObject({ precioUnitario: 0.1, alicuotaIva: 21 });
  });

  it("answers 400 naming the field for a CUIT with a wrong check digit and for a VAT rate not accepted", async () => {
    const badCuit = await send("POST", "/api/clientes", owner.rw, {
      docTipo: 80,
      docNro: "20111111113",
      razonSocial: "X",
    });
    expect(badCuit.status).toBe(400);
    expect(badCuit.json<{ error: string }>().error).toContain("docNro");
    const badRate = await send("POST", "/api/productos", owner.rw, {
      descripcion: "X",
      precioUnitario: "1",
      alicuotaIva: 22,
    });
    expect(badRate.status).toBe(400);
    expect(badRate.json<{ error: string }>().error).toContain("alicuotaIva");
    expect(badRate.json<{ error: string }>().error).toContain("10.5");
  });

  it("pages the customer list with limit and cursor, without repeating or skipping", async () => {
    const account = await newAccount(stack, "Paginado");
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const created = await send("POST", "/api/clientes", account.rw, {
        docTipo: 96,
        docNro: String(30_000_000 + i),
        razonSocial: `Cliente ${i}`,
      });
      expect(created.status, created.text).toBe(201);
      ids.push(created.json<Cliente>().id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const path: string = `/api/clientes?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const page = await send("GET", path, account.ro);
      expect(page.status, page.text).toBe(200);
      const body = page.json<Page<Cliente>>();
      expect(body.items.length).toBeLessThanOrEqual(2);
      seen.push(...body.items.map((c) => c.id));
      cursor = body.nextCursor;
      pages++;
    } while (cursor !== null && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(ids);
  });

  it("answers 409 for a document already held, lets another account hold it, and frees it on delete", async () => {
    const body = { docTipo: 96, docNro: "22333444", razonSocial: "Ana Gómez" };
    const first = await send("POST", "/api/clientes", owner.rw, body);
    expect(first.status, first.text).toBe(201);
    const duplicate = await send("POST", "/api/clientes", owner.rw, {
      ...body,
      razonSocial: "Otra",
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.json()).toMatchObject({ error: "Ya tenés un cliente con ese documento" });
    expect((await send("POST", "/api/clientes", stranger.rw, body)).status).toBe(201);

    const { id } = first.json<Cliente>();
    expect((await send("DELETE", `/api/clientes/${id}`, owner.rw)).status).toBe(204);
    expect((await send("GET", `/api/clientes/${id}`, owner.rw)).status).toBe(404);
    const reused = await send("POST", "/api/clientes", owner.rw, body);
    expect(reused.status, reused.text).toBe(201);
    expect(reused.json<Cliente>().id).not.toBe(id);
    const listed = await send("GET", "/api/clientes?docTipo=96&docNro=22333444", owner.rw);
    expect(listed.json<Page<Cliente>>().items.map((c) => c.id)).toEqual([
      reused.json<Cliente>().id,
    ]);
  });

  it("answers the same 404 for another account's, a missing and a deleted id", async () => {
    const cliente = (
      await send("POST", "/api/clientes", owner.rw, {
        docTipo: 96,
        docNro: "11222333",
        razonSocial: "Privado",
      })
    ).json<Cliente>();
    const deleted = (
      await send("POST", "/api/productos", owner.rw, {
        descripcion: "Borrado",
        precioUnitario: "1",
      })
    ).json<Producto>();
    expect((await send("DELETE", `/api/productos/${deleted.id}`, owner.rw)).status).toBe(204);
    const producto = (
      await send("POST", "/api/productos", owner.rw, { descripcion: "Vivo", precioUnitario: "2" })
    ).json<Producto>();

    const cases = [
      [
        "clientes",
        { error: "Cliente no encontrado", code: "CLIENTE_NOT_FOUND" },
        [
          [stranger.rw, cliente.id],
          [owner.rw, randomUUID()],
        ],
      ],
      [
        "productos",
        { error: "Producto no encontrado", code: "PRODUCTO_NOT_FOUND" },
        [
          [stranger.rw, producto.id],
          [owner.rw, randomUUID()],
          [owner.rw, deleted.id],
        ],
      ],
    ] as const;
    for (const [resource, expected, ids] of cases) {
      for (const [authorization, id] of ids) {
        for (const [method, body] of [
          ["GET", undefined],
          ["PATCH", resource === "clientes" ? { razonSocial: "Z" } : { descripcion: "Z" }],
          ["DELETE", undefined],
        ] as const) {
          const response = await send(method, `/api/${resource}/${id}`, authorization, body);
          expect(response.status, `${method} ${resource}/${id}`).toBe(404);
          expect(response.json()).toEqual(expected);
        }
      }
    }
    // the stranger's attempts changed nothing
    expect((await send("GET", `/api/clientes/${cliente.id}`, owner.rw)).json()).toEqual(cliente);
    expect((await send("GET", `/api/productos/${producto.id}`, owner.rw)).json()).toEqual(producto);
  });

  it("lets a read_only key list and read, and refuses every write with 403", async () => {
    const cliente = (
      await send("POST", "/api/clientes", owner.rw, {
        docTipo: 96,
        docNro: "44555666",
        razonSocial: "Solo lectura",
      })
    ).json<Cliente>();
    const producto = (
      await send("POST", "/api/productos", owner.rw, { descripcion: "Leído", precioUnitario: "3" })
    ).json<Producto>();
    for (const path of [
      "/api/clientes",
      `/api/clientes/${cliente.id}`,
      "/api/productos",
      `/api/productos/${producto.id}`,
    ]) {
      expect((await send("GET", path, owner.ro)).status, path).toBe(200);
    }
    const writes = [
      ["POST", "/api/clientes", { docTipo: 96, docNro: "99888777", razonSocial: "S" }],
      ["PATCH", `/api/clientes/${cliente.id}`, { razonSocial: "Cambiado" }],
      ["DELETE", `/api/clientes/${cliente.id}`, undefined],
      ["POST", "/api/productos", { descripcion: "x", precioUnitario: "1" }],
      ["PATCH", `/api/productos/${producto.id}`, { descripcion: "Cambiado" }],
      ["DELETE", `/api/productos/${producto.id}`, undefined],
    ] as const;
    for (const [method, path, body] of writes) {
      const response = await send(method, path, owner.ro, body);
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.json()).toEqual({ error: READ_ONLY, code: "READ_ONLY_KEY" });
    }
    expect((await send("GET", `/api/clientes/${cliente.id}`, owner.ro)).json()).toEqual(cliente);
    expect((await send("GET", `/api/productos/${producto.id}`, owner.ro)).json()).toEqual(producto);
    const search = await send("GET", "/api/clientes?docTipo=96&docNro=99888777", owner.ro);
    expect(search.json<Page<Cliente>>().items).toEqual([]);
  });

  it("gives exactly one 201 to 20 simultaneous creates of the same document, the rest 409", async () => {
    const account = await newAccount(stack, "Carrera");
    const body = { docTipo: 80, docNro: randomCuit("30"), razonSocial: "Carrera SA" };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => send("POST", "/api/clientes", account.rw, body)),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
  });
});
