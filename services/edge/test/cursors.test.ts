import { randomBytes } from "node:crypto";
import { loadConfig as loadCatalogConfig, startCatalog } from "@pasarela/catalog";
import { invalidCursor } from "@pasarela/errors";
import { createLogger } from "@pasarela/telemetry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startQueryStack, type QueryStack } from "./query-stack.js";

/**
 * Every paged list through the edge, with the services behind it (catalog, billing, wsfe over
 * the authority simulator): a cursor continues only the list, account and filters it came
 * from, and every other cursor gets the same 400 naming `cursor`.
 */

interface Page {
  items: { id: string }[];
  nextCursor: string | null;
}

interface Caller {
  accountId: string;
  authorization: string;
}

const PTO_VTA = 2;
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/**
 * Each list with the filters of its first page, and other filters of the same list. Lists of
 * a pair share the same filters (none, or only the environment), so a cursor moved within the
 * pair differs only in its list.
 */
const LISTS = [
  { name: "clientes", path: "/api/clientes", filters: "", other: "q=cliente", pair: "productos" },
  { name: "productos", path: "/api/productos", filters: "", other: "q=cosa", pair: "clientes" },
  {
    name: "uso",
    path: "/api/uso",
    filters: "environment=homologacion",
    other: "environment=homologacion&status=200",
    pair: "comprobantes",
  },
  {
    name: "comprobantes",
    path: "/api/wsfe/comprobantes",
    filters: "environment=homologacion",
    other: "environment=homologacion&state=authorized",
    pair: "uso",
  },
] as const;
type ListName = (typeof LISTS)[number]["name"];

describe("edge: page cursors of every list", () => {
  let stack: QueryStack;
  let stopCatalog: () => Promise<void>;
  let owner: Caller;
  let stranger: Caller;

  const get = (caller: Caller, url: string) =>
    stack.edge.app.inject({
      method: "GET",
      url,
      headers: { authorization: caller.authorization },
    });
  const listOf = (name: ListName) => LISTS.find((l) => l.name === name)!;
  const url = (path: string, query: string, extra: string) =>
    `${path}?${[query, extra].filter((part) => part !== "").join("&")}`;
  async function page(caller: Caller, name: ListName, extra: string, filters?: string) {
    const list = listOf(name);
    const response = await get(caller, url(list.path, filters ?? list.filters, extra));
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Page>();
  }
  /** The first page of one item, and its cursor. */
  async function firstCursor(caller: Caller, name: ListName): Promise<string> {
    const first = await page(caller, name, "limit=1");
    expect(first.nextCursor, `${name}: a second page`).not.toBeNull();
    return first.nextCursor!;
  }
  async function refused(caller: Caller, name: ListName, cursor: string, filters?: string) {
    const list = listOf(name);
    const response = await get(
      caller,
      url(list.path, filters ?? list.filters, `limit=1&cursor=${encodeURIComponent(cursor)}`),
    );
    expect(response.statusCode, response.body).toBe(400);
    const { message, code, details } = invalidCursor();
    expect(response.json()).toEqual({ error: message, code, details });
  }

  async function seed(caller: Caller, n: number) {
    const { cuit } = await stack.register({
      accountId: caller.accountId,
      environment: "homologacion",
      ptoVta: PTO_VTA,
      delegate: ["wsfe"],
      pos: [{ ptoVta: PTO_VTA, service: "wsfe" }],
    });
    for (let i = 0; i < 3; i++) {
      const cliente = await stack.post("/api/clientes", caller.authorization, {
        docTipo: 96,
        docNro: String(10_000_000 + n * 10 + i),
        razonSocial: `Cliente ${i}`,
      });
      expect(cliente.statusCode, cliente.body).toBe(201);
      const producto = await stack.post("/api/productos", caller.authorization, {
        descripcion: `Cosa ${i}`,
        precioUnitario: "10",
        alicuotaIva: 21,
      });
      expect(producto.statusCode, producto.body).toBe(201);
    }
    for (let i = 0; i < 3; i++) {
      const issued = await stack.post("/api/wsfe/facturas", caller.authorization, {
        environment: "homologacion",
        representada: cuit,
        ptoVta: PTO_VTA,
        cbteTipo: 11,
        concepto: 1,
        docTipo: 99,
        docNro: "0",
        condicionIvaReceptorId: 5,
        items: [{ descripcion: "Servicio", cantidad: 1, precioUnitario: "100", alicuotaIva: 0 }],
      });
      expect(issued.statusCode, issued.body).toBe(200);
    }
    // the usage history is written a moment after each call
    const deadline = Date.now() + 20_000;
    for (;;) {
      const uso = await page(caller, "uso", "limit=3");
      if (uso.items.length === 3) break;
      if (Date.now() > deadline) throw new Error("the usage history did not fill");
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  beforeAll(async () => {
    stack = await startQueryStack();
    const catalog = await startCatalog(
      loadCatalogConfig({
        NATS_URL: stack.infra.natsUrl,
        NATS_PREFIX: stack.infra.prefix,
        DATABASE_URL: stack.infra.databaseUrl,
        CURSOR_KEY: randomBytes(32).toString("base64"),
      }),
      createLogger({ service: "catalog", level: "silent" }),
    );
    stopCatalog = catalog.stop;
    [owner, stranger] = await Promise.all([stack.newKey(), stack.newKey()]);
    await seed(owner, 1);
    await seed(stranger, 2);
  }, 180_000);

  afterAll(async () => {
    await stopCatalog?.();
    await stack?.stop();
  });

  describe.each(LISTS.map((list) => [list.name, list] as const))("%s", (name, list) => {
    it("continues with the next page for a cursor of its own", async () => {
      const two = await page(owner, name, "limit=2");
      const cursor = await firstCursor(owner, name);
      const next = await page(owner, name, `limit=1&cursor=${encodeURIComponent(cursor)}`);
      expect(next.items.map((i) => i.id)).toEqual([two.items[1]!.id]);
      // the page size may change between pages
      const rest = await page(owner, name, `limit=50&cursor=${encodeURIComponent(cursor)}`);
      expect(rest.items[0]!.id).toBe(two.items[1]!.id);
      expect(rest.nextCursor).toBeNull();
    });

    it("refuses another account's cursor of the same list and filters", async () => {
      await refused(owner, name, await firstCursor(stranger, name));
    });

    it("refuses a cursor of another list, same account and filters", async () => {
      await refused(owner, name, await firstCursor(owner, list.pair));
    });

    it("refuses its own cursor under other filters", async () => {
      await refused(owner, name, await firstCursor(owner, name), list.other);
    });

    it("refuses a cursor with any one character altered, and text it never issued", async () => {
      const cursor = await firstCursor(owner, name);
      // the neighbouring letter flips one bit: the smallest change a caller could make
      const altered = [...cursor].map(
        (c, at) =>
          `${cursor.slice(0, at)}${BASE64URL[BASE64URL.indexOf(c) ^ 1]}${cursor.slice(at + 1)}`,
      );
      await Promise.all(altered.map((text) => refused(owner, name, text)));
      await refused(owner, name, cursor.slice(0, -4));
      await refused(owner, name, "abc");
    });
  });
});
