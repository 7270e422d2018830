import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http, newAccount, type Account, type ErrorBody } from "../support/operator.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";

interface Webhook {
  id: string;
  url: string;
  eventos: string[];
  descripcion: string | null;
  activo: boolean;
  createdAt: string;
  updatedAt: string;
}

const READ_ONLY = "Esta API key es de solo lectura y no puede modificar datos de la cuenta.";
const NOT_FOUND = { error: "Webhook no encontrado", code: "WEBHOOK_NOT_FOUND" };
// public addresses written as literals: the stack's address rule applies without DNS
const URL_A = "https://93.184.216.34/pasarela/eventos";
const URL_B = "https://[2606:2800:220:1::1]:8443/hooks";

describe("webhooks end to end: /api/webhooks over real processes", () => {
  let stack: E2EStack;
  let owner: Account;
  let stranger: Account;

  beforeAll(async () => {
    // the address rule on, as in production (the local stack lifts it)
    stack = await startE2EStack({ env: { LOG_LEVEL: "info", WEBHOOKS_ALLOW_PRIVATE: "false" } });
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

  it("registers an endpoint, shows its secret once, and reads, changes and deletes it", async () => {
    const created = await send("POST", "/api/webhooks", owner.rw, {
      url: URL_A,
      eventos: ["comprobante.autorizado", "cobro.pagado"],
      descripcion: "ERP",
    });
    expect(created.status, created.text).toBe(201);
    const { secreto, ...endpoint } = created.json<Webhook & { secreto: string }>();
    expect(secreto).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secreto.slice(6), "base64")).toHaveLength(32);
    expect(endpoint).toMatchObject({
      url: URL_A,
      eventos: ["comprobante.autorizado", "cobro.pagado"],
      descripcion: "ERP",
      activo: true,
    });
    const { id } = endpoint;

    // reads never carry the secret, read_only keys included
    const list = await send("GET", "/api/webhooks", owner.ro);
    expect(list.status).toBe(200);
    expect(list.json()).toEqual({ items: [endpoint] });
    expect(list.text).not.toContain(secreto.slice(6));
    const got = await send("GET", `/api/webhooks/${id}`, owner.ro);
    expect(got.json()).toEqual(endpoint);
    expect(got.text).not.toContain("secreto");

    const patched = await send("PATCH", `/api/webhooks/${id}`, owner.rw, {
      url: URL_B,
      eventos: ["*"],
      descripcion: null,
      activo: false,
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json()).toMatchObject({
      id,
      url: URL_B,
      eventos: ["*"],
      descripcion: null,
      activo: false,
      createdAt: endpoint.createdAt,
    });

    const deleted = await send("DELETE", `/api/webhooks/${id}`, owner.rw);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    const gone = await send("GET", `/api/webhooks/${id}`, owner.rw);
    expect(gone.status).toBe(404);
    expect(gone.json()).toEqual(NOT_FOUND);
    expect((await send("GET", "/api/webhooks", owner.rw)).json()).toEqual({ items: [] });
  });

  it("rotates the secret: a new one, the previous one valid for 24 hours", async () => {
    const created = await send("POST", "/api/webhooks", owner.rw, {
      url: URL_A,
      eventos: ["email.fallido"],
    });
    const { id, secreto } = created.json<Webhook & { secreto: string }>();
    const before = Date.now();
    const rotated = await send("POST", `/api/webhooks/${id}/rotar-secreto`, owner.rw);
    expect(rotated.status, rotated.text).toBe(200);
    const body = rotated.json<{ id: string; secreto: string; anteriorVenceAt: string }>();
    expect(Object.keys(body).sort()).toEqual(["anteriorVenceAt", "id", "secreto"]);
    expect(body.id).toBe(id);
    expect(body.secreto).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(body.secreto).not.toBe(secreto);
    const overlap = Date.parse(body.anteriorVenceAt) - before;
    expect(overlap).toBeGreaterThanOrEqual(24 * 3600_000 - 1000);
    expect(overlap).toBeLessThanOrEqual(24 * 3600_000 + 60_000);
    await send("DELETE", `/api/webhooks/${id}`, owner.rw);
  });

  it("lets a read_only key read, and refuses its writes with the account-data message", async () => {
    const { id } = (
      await send("POST", "/api/webhooks", owner.rw, { url: URL_A, eventos: ["*"] })
    ).json<Webhook>();
    const writes = [
      ["POST", "/api/webhooks", { url: URL_A, eventos: ["*"] }],
      ["PATCH", `/api/webhooks/${id}`, { activo: false }],
      ["DELETE", `/api/webhooks/${id}`, undefined],
      ["POST", `/api/webhooks/${id}/rotar-secreto`, undefined],
    ] as const;
    for (const [method, path, body] of writes) {
      const response = await send(method, path, owner.ro, body);
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.json()).toEqual({ error: READ_ONLY, code: "READ_ONLY_KEY" });
    }
    const still = await send("GET", `/api/webhooks/${id}`, owner.ro);
    expect(still.json<Webhook>()).toMatchObject({ id, activo: true });
    await send("DELETE", `/api/webhooks/${id}`, owner.rw);
  });

  it("answers another account's id exactly like an unknown one", async () => {
    const { id } = (
      await send("POST", "/api/webhooks", owner.rw, { url: URL_A, eventos: ["*"] })
    ).json<Webhook>();
    const attempts = [
      ["GET", `/api/webhooks/${id}`, undefined],
      ["PATCH", `/api/webhooks/${id}`, { activo: false }],
      ["POST", `/api/webhooks/${id}/rotar-secreto`, undefined],
      ["DELETE", `/api/webhooks/${id}`, undefined],
    ] as const;
    for (const [method, path, body] of attempts) {
      const foreign = await send(method, path, stranger.rw, body);
      const unknown = await send(method, path.replace(id, randomUUID()), owner.rw, body);
      const malformed = await send(method, path.replace(id, "nope"), owner.rw, body);
      for (const answer of [foreign, unknown, malformed]) {
        expect(answer.status, `${method} ${path}`).toBe(404);
        expect(answer.json()).toEqual(NOT_FOUND);
      }
    }
    expect((await send("GET", "/api/webhooks", stranger.rw)).json()).toEqual({ items: [] });
    expect((await send("GET", `/api/webhooks/${id}`, owner.rw)).status).toBe(200);
    await send("DELETE", `/api/webhooks/${id}`, owner.rw);
  });

  it("refuses unknown events, no events, credentials and internal addresses, naming the field", async () => {
    const refused = async (body: unknown, field: string, problem: RegExp) => {
      const answer = await send("POST", "/api/webhooks", owner.rw, body);
      expect(answer.status, answer.text).toBe(400);
      const error = answer.json<ErrorBody>();
      expect(error.code).toBe("INVALID_FIELD");
      expect(error.details).toMatchObject({ field });
      expect(error.error).toMatch(new RegExp(`^El campo ${field.replace(".", "\\.")} `));
      expect(error.details?.problem).toMatch(problem);
      return error;
    };
    const unknown = await refused(
      { url: URL_A, eventos: ["comprobante.autorizado", "factura.creada"] },
      "eventos.1",
      /^debe ser /,
    );
    for (const evento of [
      "comprobante.caea_informado",
      "certificado.por_vencer",
      "cuota.alerta",
      "*",
    ]) {
      expect(unknown.error).toContain(`"${evento}"`);
    }
    await refused({ url: URL_A, eventos: [] }, "eventos", /al menos 1/);
    await refused(
      { url: "https://user:pass@93.184.216.34/hook", eventos: ["*"] },
      "url",
      /usuario ni contraseña/,
    );
    await refused({ url: "ftp://93.184.216.34/", eventos: ["*"] }, "url", /https/);
    for (const url of [
      "http://127.0.0.1:3000/",
      "https://10.1.2.3/",
      "https://169.254.169.254/latest/meta-data",
      "https://100.64.0.1/",
      "https://[::1]/",
      "https://[fd00:ec2::254]/",
      "https://localhost/",
    ]) {
      await refused({ url, eventos: ["*"] }, "url", /privada, local o reservada|misma máquina/);
    }
    // a change of address follows the same rule
    const { id } = (
      await send("POST", "/api/webhooks", owner.rw, { url: URL_A, eventos: ["*"] })
    ).json<Webhook>();
    const patch = await send("PATCH", `/api/webhooks/${id}`, owner.rw, {
      url: "http://192.168.0.1/",
    });
    expect(patch.status).toBe(400);
    expect(patch.json<ErrorBody>().details).toMatchObject({ field: "url" });
    await send("DELETE", `/api/webhooks/${id}`, owner.rw);
    expect((await send("GET", "/api/webhooks", owner.rw)).json()).toEqual({ items: [] });
  });

  it("keeps at most 20 endpoints per account: the 21st is 409", async () => {
    const account = await newAccount(stack, "Muchos webhooks");
    for (let i = 0; i < 20; i++) {
      const answer = await send("POST", "/api/webhooks", account.rw, {
        url: `${URL_A}/${i}`,
        eventos: ["*"],
      });
      expect(answer.status, answer.text).toBe(201);
    }
    const over = await send("POST", "/api/webhooks", account.rw, { url: URL_A, eventos: ["*"] });
    expect(over.status).toBe(409);
    expect(over.json()).toEqual({
      error: "Llegaste al máximo de 20 webhooks por cuenta: eliminá uno para registrar otro",
      code: "WEBHOOK_LIMIT_REACHED",
    });
  });
});
