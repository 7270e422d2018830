import { createRequire } from "node:module";
import { CUIT_FORMAT, isValidCuit } from "@pasarela/contracts";
import { Ajv2020 } from "ajv/dist/2020.js";
import formats from "ajv-formats";
import type RandExpModule from "randexp";

// randexp replaces module.exports with its class, which its declarations call the default
const RandExp = createRequire(import.meta.url)("randexp") as typeof RandExpModule.default;

/** A JSON Schema (2020-12, as OpenAPI 3.1 holds them); `true`/`false` included. */
export type Schema = boolean | { readonly [keyword: string]: unknown };
type SchemaObject = Record<string, unknown>;

const ajv = new Ajv2020({ strict: false, allErrors: true });
formats.default(ajv);
// the document's own format: a CUIT or CUIL the registry and the customers' rules accept
ajv.addFormat(CUIT_FORMAT, (text: string) => /^[1-9]\d{10}$/.test(text) && isValidCuit(text));
/** The smallest key of that format: 2000000000 and its check digit. */
const SMALLEST_CUIT = "20000000001";

/** Whether `value` is valid under `schema`, and the validator's complaints when it is not. */
export function check(schema: Schema, value: unknown): { valid: boolean; errors: string } {
  const validate = ajv.compile(schema);
  const valid = validate(value);
  return {
    valid,
    errors: (validate.errors ?? [])
      .map((e) => `${e.instancePath || "/"} ${e.message ?? e.keyword}`)
      .join("; "),
  };
}

const asObject = (schema: Schema | undefined): SchemaObject =>
  schema === undefined || schema === true ? {} : schema === false ? { not: {} } : { ...schema };

const list = (value: unknown): unknown[] => (Array.isArray(value) ? (value as unknown[]) : []);

/** Both schemas at once: required lists and properties are joined, the rest taken from `b`. */
function merge(a: SchemaObject, b: SchemaObject): SchemaObject {
  const out: SchemaObject = { ...a, ...b };
  if (a.required !== undefined || b.required !== undefined) {
    out.required = [...new Set([...list(a.required), ...list(b.required)])];
  }
  for (const key of ["allOf", "conditionals"]) {
    if (a[key] !== undefined || b[key] !== undefined) out[key] = [...list(a[key]), ...list(b[key])];
  }
  const pa = a.properties as Record<string, Schema> | undefined;
  const pb = b.properties as Record<string, Schema> | undefined;
  if (pa && pb) {
    const properties: Record<string, Schema> = { ...pa };
    for (const [name, schema] of Object.entries(pb)) {
      properties[name] = name in pa ? merge(asObject(pa[name]), asObject(schema)) : schema;
    }
    out.properties = properties;
  }
  return out;
}

/**
 * The schema with its alternatives chosen and its conjunctions folded in: the first branch of
 * each anyOf/oneOf, every allOf member; if/then/else pairs are kept aside (`conditionals`),
 * decided once there is a value to test them on.
 */
function flatten(input: SchemaObject): SchemaObject {
  let schema = { ...input };
  for (;;) {
    const { anyOf, oneOf, allOf, if: condition, then, else: otherwise, ...rest } = schema;
    const branches = list(anyOf).length > 0 ? list(anyOf) : list(oneOf);
    const members = list(allOf);
    const conditional = condition === undefined ? [] : [{ if: condition, then, else: otherwise }];
    if (branches.length === 0 && members.length === 0 && conditional.length === 0) return schema;
    let next: SchemaObject = {
      ...rest,
      conditionals: [...list(rest.conditionals), ...conditional],
    };
    // a branch that does not match what the rest says (`{type: null}` beside a string) is skipped
    const branch = branches.find((b) => asObject(b as Schema).type !== "null") ?? branches[0];
    // each part flattened first, so its own if/then joins the conditionals instead of
    // overwriting another's
    if (branch !== undefined) next = merge(next, flatten(asObject(branch as Schema)));
    for (const member of members) next = merge(next, flatten(asObject(member as Schema)));
    schema = next;
  }
}

/** What a named property or path parameter must hold, when the schema cannot know it. */
export type Known = Readonly<Record<string, unknown>>;

/**
 * The smallest value `schema` accepts: an object with only its required properties (and as
 * many more as `minProperties` asks), the first alternative of each choice with if/then
 * honoured, the first value of an enum, the lower bound of a number, the shortest string of a
 * pattern. `known` supplies values by property name (a stored resource's id, the registered
 * CUIT) wherever the schema names that property.
 */
export function minimalValue(schema: Schema, known: Known = {}, name?: string): unknown {
  if (name !== undefined && name in known) return known[name];
  let s = flatten(asObject(schema));
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum)) return (s.enum as unknown[])[0];
  const types = list(s.type).length > 0 ? list(s.type) : [s.type];
  const type = types.find((t) => t !== "null") ?? types[0];
  if (type === "object" || (type === undefined && s.properties !== undefined)) {
    // decide each condition on the value so far until none changes what it must hold
    const decided = new Set<unknown>();
    let value = minimalObject(s, known);
    for (let round = 0; round < 10; round++) {
      const pending = list(s.conditionals).filter((c) => !decided.has(c)) as SchemaObject[];
      const applicable = pending.find((c) => {
        const holds = check(c.if as Schema, value).valid;
        return holds ? c.then !== undefined : c.else !== undefined;
      });
      if (applicable === undefined) return value;
      decided.add(applicable);
      const holds = check(applicable.if as Schema, value).valid;
      s = flatten(merge(s, asObject((holds ? applicable.then : applicable.else) as Schema)));
      value = minimalObject(s, known);
    }
    return value;
  }
  if (type === "array") {
    const count = typeof s.minItems === "number" ? s.minItems : 0;
    const items = Array.from({ length: count }, () => minimalValue(s.items as Schema, known));
    if (
      s.contains !== undefined &&
      !items.some((item) => check(s.contains as Schema, item).valid)
    ) {
      items.push(minimalValue(merge(asObject(s.items as Schema), asObject(s.contains as Schema))));
    }
    return items;
  }
  if (type === "string") return minimalString(s);
  if (type === "number" || type === "integer") return minimalNumber(s, type === "integer");
  if (type === "boolean") return false;
  if (type === "null") return null;
  throw new Error(`no minimal value for schema ${JSON.stringify(schema)}`);
}

function minimalObject(s: SchemaObject, known: Known): Record<string, unknown> {
  const properties = (s.properties ?? {}) as Record<string, Schema>;
  const names = new Set(list(s.required) as string[]);
  const minimum = typeof s.minProperties === "number" ? s.minProperties : 0;
  for (const name of Object.keys(properties)) {
    if (names.size >= minimum) break;
    names.add(name);
  }
  // a property that brings others along (dependentRequired) brings them here too
  const dependent = (s.dependentRequired ?? {}) as Record<string, string[]>;
  const pending = [...names];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    for (const other of dependent[name] ?? []) {
      if (!names.has(other)) {
        names.add(other);
        pending.push(other);
      }
    }
  }
  const value: Record<string, unknown> = {};
  for (const name of names) value[name] = minimalValue(properties[name] ?? true, known, name);
  return value;
}

function minimalString(s: SchemaObject): string {
  const min = typeof s.minLength === "number" ? s.minLength : 0;
  if (s.format === CUIT_FORMAT && check(s, SMALLEST_CUIT).valid) return SMALLEST_CUIT;
  if (typeof s.pattern === "string") {
    // the shortest match (every repetition at its least, every choice its first); a pattern
    // with a lookahead may refuse it, and then the first of a fixed series of others it takes
    const pattern = new RandExp(s.pattern);
    pattern.randInt = (from: number) => from;
    const candidates = [pattern.gen()];
    let seed = 1;
    pattern.randInt = (from: number, to: number) => {
      seed = (seed * 48_271) % 2_147_483_647;
      return from + (seed % (to - from + 1));
    };
    for (let i = 0; i < 50; i++) candidates.push(pattern.gen());
    const text = candidates.find((c) => c.length >= min && check(s, c).valid);
    if (text !== undefined) return text;
  }
  switch (s.format) {
    case "email":
      return "a@example.com";
    case "uuid":
      return "00000000-0000-4000-8000-000000000000";
    case "date":
      return "2000-01-01";
    case "date-time":
      return "2000-01-01T00:00:00Z";
    case "uri":
      return "https://example.com/";
    default:
      return "a".repeat(min);
  }
}

function minimalNumber(s: SchemaObject, integer: boolean): number {
  const num = (key: string) => {
    const bound = s[key];
    return typeof bound === "number" ? bound : undefined;
  };
  let value = 0;
  const minimum = num("minimum");
  const above = num("exclusiveMinimum");
  const maximum = num("maximum");
  const below = num("exclusiveMaximum");
  if (minimum !== undefined && value < minimum) value = minimum;
  if (above !== undefined && value <= above) value = integer ? Math.floor(above) + 1 : above + 1;
  if (maximum !== undefined && value > maximum) value = maximum;
  if (below !== undefined && value >= below) value = integer ? Math.ceil(below) - 1 : below - 1;
  return value;
}
