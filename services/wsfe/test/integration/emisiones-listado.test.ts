import { randomBytes, randomUUID } from "node:crypto";
import type { AccountContext } from "@pasarela/bus";
import { wsfe } from "@pasarela/contracts";
import { makePageCursors } from "@pasarela/sealing";
import { capturingLogger } from "@pasarela/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeEmisionesRepository } from "../../src/db/repositories/emisiones.js";
import { makeEmisionList } from "../../src/handlers/emision-list.js";
import { openWsfeStore, type WsfeStore } from "./fixture.js";

const accountId = randomUUID();
const ctx = (account = accountId): AccountContext => ({
  accountId: account,
  requestId: randomUUID(),
  subject: wsfe.emisionList.subject,
  deadline: undefined,
  logger: capturingLogger("wsfe").logger,
});

describe("wsfe.emision.list: the account's asynchronous issuances (PostgreSQL)", () => {
  let store: WsfeStore;
  const ids: string[] = [];

  beforeAll(async () => {
    store = await openWsfeStore();
    const emisiones = makeEmisionesRepository(store.db);
    for (const n of [1, 2, 3]) {
      const id = randomUUID();
      await emisiones.insert({
        id,
        accountId,
        environment: "homologacion",
        tipo: "factura",
        idempotencyKey: `pedido-${n}`,
        llave: `pedido-${n}`,
        fingerprint: "f",
        request: { n },
        admitted: true,
      });
      ids.push(id);
    }
    // one ended authorized, one under another account, one in the other environment
    await store.db
      .updateTable("emisiones")
      .set({
        estado: "autorizado",
        answer: { kind: "authorized", factura: { cbteNro: 7, cae: "71263951827464" } },
      })
      .where("id", "=", ids[1]!)
      .execute();
    await emisiones.insert({
      id: randomUUID(),
      accountId: randomUUID(),
      environment: "homologacion",
      tipo: "factura",
      idempotencyKey: null,
      llave: "otra",
      fingerprint: "f",
      request: {},
      admitted: true,
    });
    await emisiones.insert({
      id: randomUUID(),
      accountId,
      environment: "produccion",
      tipo: "factura",
      idempotencyKey: null,
      llave: "prod",
      fingerprint: "f",
      request: {},
      admitted: true,
    });
  });

  afterAll(async () => {
    await store?.close();
  });

  const lister = () =>
    makeEmisionList({
      emisiones: makeEmisionesRepository(store.db),
      cursors: makePageCursors(randomBytes(32).toString("base64")),
    });

  it("pages the account's issuances of one environment newest first, with their state and result", async () => {
    const list = lister();
    const first = await list({ environment: "homologacion", limit: 2 }, ctx());
    if (!first.ok) throw new Error(first.error.message);
    expect(wsfe.emisionList.reply.safeParse(first.value).success).toBe(true);
    expect(first.value.items.map((e) => e.id)).toEqual([ids[2], ids[1]]);
    expect(first.value.items[1]).toMatchObject({
      estado: "autorizado",
      proximoIntento: null,
      answer: { kind: "authorized", factura: { cbteNro: 7 } },
    });
    expect(first.value.items[0]).toMatchObject({ estado: "pendiente", idempotencyKey: "pedido-3" });
    expect(first.value.items[0]!.proximoIntento).not.toBeNull();
    const second = await list(
      { environment: "homologacion", limit: 2, cursor: first.value.nextCursor! },
      ctx(),
    );
    if (!second.ok) throw new Error(second.error.message);
    expect(second.value).toMatchObject({ items: [{ id: ids[0] }], nextCursor: null });
  });

  it("filters by state, and a cursor opens only for its account and filters", async () => {
    const list = lister();
    const pendientes = await list(
      { environment: "homologacion", estado: "pendiente", limit: 1 },
      ctx(),
    );
    if (!pendientes.ok) throw new Error(pendientes.error.message);
    expect(pendientes.value.items.map((e) => e.id)).toEqual([ids[2]]);
    const cursor = pendientes.value.nextCursor!;
    const other = await list(
      { environment: "homologacion", estado: "pendiente", limit: 1, cursor },
      ctx(randomUUID()),
    );
    expect(!other.ok && other.error.code).toBe("INVALID_FIELD");
    const next = await list(
      { environment: "homologacion", estado: "pendiente", limit: 1, cursor },
      ctx(),
    );
    expect(next.ok && next.value.items.map((e) => e.id)).toEqual([ids[0]]);
  });
});
