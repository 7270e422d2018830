import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { check, minimalValue, type Schema } from "../support/minimal-body.js";
import {
  newAccount,
  register,
  scratch,
  simDelegate,
  type Account,
  type ErrorBody,
  type Registered,
  type Scratch,
} from "../support/operator.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";

const WRITE_METHODS = ["post", "put", "patch", "delete"] as const;

/**
 * Write operations of the document this test does not send, each with the reason. Every other
 * one is sent: a write route added later is covered without touching this file.
 */
const NOT_SENT: Readonly<Record<string, string>> = {};

/**
 * 400s that answer what a stored resource, the authority or a file's content decides, not the
 * body's shape; each still has to name a field the body sent. Any other 400 to a body the
 * document calls valid means the document says less than the server demands.
 */
const DECIDED_ELSEWHERE: Readonly<Record<string, string>> = {
  CLIENTE_REFERENCE_NOT_FOUND: "a clienteId resolves only against the account's customers",
  PRODUCTO_REFERENCE_NOT_FOUND: "a productoId resolves only against the account's products",
  CLIENTE_WITHOUT_CONDICION_IVA: "what the stored customer lacks, not the body",
  PRODUCTO_WITHOUT_ALICUOTA: "what the stored product lacks, not the body",
  POINT_OF_SALE_NOT_ENABLED: "the authority's own list of enabled points of sale",
  AUTHORITY_QUERY_REFUSED: "the authority refused the query for what it holds",
  CERTIFICATE_NOT_PEM: "a certificate's PEM content is no JSON Schema matter",
  CERTIFICATE_IS_CSR: "a certificate's PEM content is no JSON Schema matter",
};

interface Parameter {
  in: "path" | "query" | "header" | "cookie";
  name: string;
  required?: boolean;
  schema?: Schema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: {
    required?: boolean;
    content?: Record<string, { schema?: Schema; examples?: Record<string, { value: unknown }> }>;
  };
  security?: unknown[];
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
}

interface Sent {
  operation: string;
  status: number;
  body: unknown;
  answer: string;
}

/** The fields of a body, as the error handler names them: `items.0.descripcion`. */
function fieldsOf(value: unknown, prefix = ""): string[] {
  if (value === null || typeof value !== "object") return prefix ? [prefix] : [];
  const entries = Array.isArray(value)
    ? value.map((item, index) => [String(index), item] as const)
    : Object.entries(value);
  return [
    ...(prefix ? [prefix] : []),
    ...entries.flatMap(([key, item]) => fieldsOf(item, prefix ? `${prefix}.${key}` : key)),
  ];
}

/** What a 400 says is wrong with the body sent, or undefined when the document agrees with it. */
function disagreement(sent: Sent): string | undefined {
  if (sent.status !== 400) return undefined;
  let error: ErrorBody;
  try {
    error = JSON.parse(sent.answer) as ErrorBody;
  } catch {
    return `400 without an error body: ${sent.answer}`;
  }
  const field = error.details?.field;
  const named = typeof field === "string" ? field : undefined;
  const sentFields = fieldsOf(sent.body);
  if (named !== undefined && !sentFields.includes(named)) {
    return `demands ${named}, which the document does not require: ${error.error}`;
  }
  if (!(error.code in DECIDED_ELSEWHERE)) {
    return `refuses a body the document calls valid (${error.code}${named ? ` on ${named}` : ""}): ${error.error}`;
  }
  return undefined;
}

describe("the OpenAPI document states every field a write operation requires", () => {
  let stack: E2EStack;
  let dir: Scratch;
  let account: Account;
  let issuer: Registered;
  let document: Document;

  beforeAll(async () => {
    stack = await startE2EStack({ env: { LOG_LEVEL: "info" } });
    dir = scratch();
    account = await newAccount(stack, "Documento");
    // a representada with everything delegated, so the bodies reach the rules past the 403s
    issuer = await register(stack, dir, {
      accountId: account.accountId,
      environment: "homologacion",
      ptoVta: 1,
      delegate: ["wsfe", "wsfex"],
      pos: [
        { ptoVta: 1, service: "wsfe" },
        { ptoVta: 1, service: "wsfex" },
      ],
    });
    for (const service of [
      "ws_sr_padron_a13",
      "ws_sr_padron_a10",
      "ws_sr_constancia_inscripcion",
    ] as const) {
      await simDelegate(stack, "homologacion", { cuit: issuer.cuit, alias: issuer.alias, service });
    }
    document = (await (await fetch(`${stack.edgeUrl}/docs/json`)).json()) as Document;
  });

  afterAll(async () => {
    dir?.remove();
    await stack?.teardown();
  });

  it("the minimal body each write operation's schema describes is never refused for its shape", async () => {
    expect(document.openapi).toBe("3.1.0");
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      WRITE_METHODS.filter((method) => methods[method] !== undefined).map((method) => ({
        key: `${method.toUpperCase()} ${path}`,
        method,
        path,
        operation: methods[method]!,
      })),
    );
    for (const key of Object.keys(NOT_SENT)) {
      expect(
        operations.map((o) => o.key),
        `NOT_SENT names ${key}`,
      ).toContain(key);
    }
    const toSend = operations.filter((o) => !(o.key in NOT_SENT));
    // creations first, so later operations address what they made; deletions last
    const rank = (o: (typeof toSend)[number]) =>
      o.method === "delete" ? 2 : o.method === "post" && !o.path.includes("{") ? 0 : 1;
    toSend.sort((a, b) => rank(a) - rank(b));

    // what the schema cannot know: the registered CUIT, and ids of what this run created
    const known: Record<string, unknown> = { representada: issuer.cuit };
    const created = new Map<string, string>();
    const sent: Sent[] = [];
    const problems: string[] = [];
    for (const { key, method, path, operation } of toSend) {
      const url = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
        const parameter = operation.parameters?.find((p) => p.in === "path" && p.name === name);
        if (name === "id") return created.get(path.split("/{")[0]!) ?? randomUUID();
        // a path segment is never empty
        const schema = { minLength: 1, ...(parameter?.schema as object) } as Schema;
        return encodeURIComponent(String(minimalValue(schema, known, name)));
      });
      const query = new URLSearchParams();
      const headers: Record<string, string> = {};
      for (const parameter of operation.parameters ?? []) {
        if (!parameter.required || parameter.in === "path") continue;
        const value = String(minimalValue(parameter.schema ?? true, known, parameter.name));
        if (parameter.in === "query") query.set(parameter.name, value);
        if (parameter.in === "header") headers[parameter.name] = value;
      }
      const content = operation.requestBody?.content;
      if (content !== undefined) {
        expect(Object.keys(content), `${key} takes JSON`).toEqual(["application/json"]);
      }
      const schema = content?.["application/json"]?.schema;
      const body = schema === undefined ? undefined : minimalValue(schema, known);
      if (schema !== undefined) {
        const valid = check(schema, body);
        expect(
          valid.valid,
          `${key}: ${JSON.stringify(body)} breaks its own schema: ${valid.errors}`,
        ).toBe(true);
      }
      const response = await fetch(
        `${stack.edgeUrl}${url}${query.size > 0 ? `?${query.toString()}` : ""}`,
        {
          method: method.toUpperCase(),
          headers: {
            ...headers,
            authorization: account.rw,
            ...(body === undefined ? {} : { "content-type": "application/json" }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        },
      );
      const answer = await response.text();
      const result: Sent = { operation: key, status: response.status, body, answer };
      sent.push(result);
      const problem = disagreement(result);
      if (problem !== undefined) problems.push(`${key} ${JSON.stringify(body)}: ${problem}`);
      // a creation's id addresses the collection's other operations and names it in bodies
      if (response.status === 201 && !path.includes("{")) {
        const reply = JSON.parse(answer) as Record<string, unknown>;
        const id = Object.entries(reply).find(
          ([name, value]) => (name === "id" || name.endsWith("Id")) && typeof value === "string",
        )?.[1] as string | undefined;
        if (id !== undefined) {
          created.set(path, id);
          known[`${path.split("/").pop()!.replace(/s$/, "")}Id`] = id;
        }
      }
    }
    process.stdout.write(
      `${sent.map((s) => `${s.operation} → ${s.status} ${JSON.stringify(s.body) ?? ""}`).join("\n")}\n`,
    );
    expect(problems).toEqual([]);
    // every write operation of the document was sent or is named with its reason above
    expect(sent.length + Object.keys(NOT_SENT).length).toBe(operations.length);
    // the bodies reached the services' own rules, not only the edge's
    expect(sent.filter((s) => s.status < 300).length).toBeGreaterThan(operations.length / 3);
  });

  it("every request example of the document is a body its own schema takes", () => {
    let examples = 0;
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const media = operation.requestBody?.content?.["application/json"];
        if (media?.schema === undefined) continue;
        for (const [name, example] of Object.entries(media.examples ?? {})) {
          examples++;
          const valid = check(media.schema, example.value);
          expect(valid.valid, `${method} ${path} example ${name}: ${valid.errors}`).toBe(true);
        }
      }
    }
    expect(examples).toBeGreaterThan(0);
  });

  it("states the service dates concepto 2 requires, as the server demands them", async () => {
    const media =
      document.paths["/api/wsfe/facturas"]?.post?.requestBody?.content?.["application/json"];
    const schema = media?.schema;
    if (schema === undefined) throw new Error("POST /api/wsfe/facturas has no JSON body");
    // a Factura B to an unidentified final consumer: no receiver rule answers before the dates
    const body = minimalValue(schema, {
      representada: issuer.cuit,
      concepto: 2,
      cbteTipo: 6,
      docTipo: 99,
      docNro: "0",
      condicionIvaReceptorId: 5,
    }) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(
      expect.arrayContaining(["fchServDesde", "fchServHasta", "fchVtoPago"]),
    );
    const post = async (sent: unknown) => {
      const response = await fetch(`${stack.edgeUrl}/api/wsfe/facturas`, {
        method: "POST",
        headers: { authorization: account.rw, "content-type": "application/json" },
        body: JSON.stringify(sent),
      });
      return { status: response.status, error: (await response.json()) as ErrorBody };
    };
    // the body the document describes may break voucher rules (422), never its shape (400)
    expect((await post(body)).status).not.toBe(400);
    const { fchServDesde: _dropped, ...without } = body;
    expect(check(schema, without).valid).toBe(false);
    const refused = await post(without);
    expect(refused.status).toBe(422);
    expect(refused.error.details?.field).toBe("fchServDesde");
  });
});
