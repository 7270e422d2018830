import { XMLParser, XMLValidator } from "fast-xml-parser";

/** A namespace-resolved element: what the dialects route and read on. */
export interface XmlElement {
  readonly ns: string;
  readonly name: string;
  readonly prefix: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: readonly XmlElement[];
  readonly text: string;
}

/** The request cannot be read as XML (or as the shape the operation needs). */
export interface ReadError {
  readonly kind: "read-error";
  readonly message: string;
}

function readError(message: string): ReadError {
  return { kind: "read-error", message };
}

export function isReadError(value: unknown): value is ReadError {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { kind?: unknown }).kind === "read-error"
  );
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

type RawNode = Record<string, unknown>;

function resolve(raw: RawNode, scope: ReadonlyMap<string, string>): XmlElement | undefined {
  const tag = Object.keys(raw).find((k) => k !== ":@");
  if (tag === undefined || tag === "#text" || tag.startsWith("?") || tag === "#comment") {
    return undefined;
  }
  const rawAttrs = (raw[":@"] ?? {}) as Record<string, unknown>;
  const attrs: Record<string, string> = {};
  let local = scope;
  for (const [key, value] of Object.entries(rawAttrs)) {
    const v = String(value);
    if (key === "xmlns" || key.startsWith("xmlns:")) {
      if (local === scope) local = new Map(scope);
      (local as Map<string, string>).set(key === "xmlns" ? "" : key.slice(6), v);
    } else {
      attrs[key] = v;
    }
  }
  const colon = tag.indexOf(":");
  const prefix = colon >= 0 ? tag.slice(0, colon) : "";
  const name = colon >= 0 ? tag.slice(colon + 1) : tag;
  const ns = local.get(prefix) ?? "";
  const children: XmlElement[] = [];
  let text = "";
  const content = raw[tag];
  if (Array.isArray(content)) {
    for (const item of content as RawNode[]) {
      if ("#text" in item) {
        text += String(item["#text"]);
        continue;
      }
      const child = resolve(item, local);
      if (child !== undefined) children.push(child);
    }
  }
  return { ns, name, prefix, attrs, children, text };
}

/** Parses a document; returns a ReadError rather than throwing on malformed input. */
export function parseXml(body: string): XmlElement | ReadError {
  if (body.trim() === "") return readError("Root element is missing.");
  const valid = XMLValidator.validate(body);
  if (valid !== true) {
    return readError(
      `There is an error in XML document (${valid.err.line}, ${valid.err.col}). ${valid.err.msg}`,
    );
  }
  try {
    const nodes = parser.parse(body) as RawNode[];
    for (const node of nodes) {
      const el = resolve(node, new Map([["xml", "http://www.w3.org/XML/1998/namespace"]]));
      if (el !== undefined) return el;
    }
    return readError("Root element is missing.");
  } catch (error) {
    return readError(error instanceof Error ? error.message : String(error));
  }
}

export function child(
  el: XmlElement | undefined,
  ns: string,
  name: string,
): XmlElement | undefined {
  return el?.children.find((c) => c.ns === ns && c.name === name);
}

export function childrenNamed(el: XmlElement | undefined, ns: string, name: string): XmlElement[] {
  return el === undefined ? [] : el.children.filter((c) => c.ns === ns && c.name === name);
}

export function escapeXml(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

/** Writes `<name>value</name>`, or `<name />` for an empty string, as ASMX does. */
export function el(name: string, value: string | number | undefined | null): string {
  if (value === undefined || value === null || value === "") return `<${name} />`;
  return `<${name}>${typeof value === "number" ? formatNumber(value) : escapeXml(value)}</${name}>`;
}

/** The items inside `<wrapper>`, or nothing at all for none: ASMX leaves out empty arrays. */
export function listXml<T>(wrapper: string, items: readonly T[], item: (x: T) => string): string {
  return items.length === 0 ? "" : `<${wrapper}>${items.map(item).join("")}</${wrapper}>`;
}

/** Doubles in shortest form (122, 101.202), as .NET prints them. */
export function formatNumber(value: number): string {
  if (Number.isInteger(value)) return value.toFixed(0);
  return String(Math.round(value * 1e6) / 1e6);
}
