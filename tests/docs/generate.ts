/**
 * Writes docs/configuration.md from the services' zod configuration schemas and docs/errors.md
 * from the error catalogue, with the edge's status for each code. `npm run docs` runs it;
 * tests/deploy/docs.test.ts fails when a committed file differs from what this produces.
 * Descriptions are the doc comments written next to each variable and code in the source.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { configSchema as billing } from "@pasarela/billing";
import { configSchema as catalog } from "@pasarela/catalog";
import { configSchema as cobros } from "@pasarela/cobros";
import { configSchema as edge, statusOfKind } from "@pasarela/edge";
import { catalogue, type ErrorCode } from "@pasarela/errors";
import { configSchema as mail } from "@pasarela/mail";
import { configSchema as padron } from "@pasarela/padron";
import { configSchema as pdf } from "@pasarela/pdf";
import { configSchema as ticket } from "@pasarela/ticket";
import { configSchema as webhooks } from "@pasarela/webhooks";
import { configSchema as wsfe } from "@pasarela/wsfe";
import { configSchema as wsfex } from "@pasarela/wsfex";
import { format } from "prettier";
import ts from "typescript";
import type { z } from "zod";

/** The repository's root: the nearest folder up whose package.json is the workspace root. */
export const repoRoot = (() => {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { workspaces?: unknown };
      if (pkg.workspaces) return dir;
    }
    const up = dirname(dir);
    if (up === dir) throw new Error("no workspace root above the docs generator");
    dir = up;
  }
})();

/** Every deployed service, in the order the table lists them; the keys name their package. */
const services: Record<string, z.ZodObject> = {
  edge,
  billing,
  ticket,
  catalog,
  wsfe,
  wsfex,
  padron,
  pdf,
  mail,
  cobros,
  webhooks,
};

/** The workspace folder of a package, found by its package.json name. */
function packageDir(name: string): string {
  for (const group of ["services", "shared"]) {
    const base = join(repoRoot, group);
    if (!existsSync(base)) continue;
    for (const entry of readdirSync(base)) {
      const manifest = join(base, entry, "package.json");
      if (!existsSync(manifest)) continue;
      const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string };
      if (pkg.name === name) return join(base, entry);
    }
  }
  throw new Error(`no workspace named ${name}`);
}

/** The doc comment of every UPPER_CASE property assignment in one source file. */
function docComments(path: string): Map<string, string> {
  const source = ts.createSourceFile(
    path,
    readFileSync(path, "utf8"),
    ts.ScriptTarget.Latest,
    true,
  );
  const found = new Map<string, string>();
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name)) {
      const name = node.name.text;
      if (/^[A-Z][A-Z0-9_]*$/.test(name)) {
        const text = ts
          .getJSDocCommentsAndTags(node)
          .map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? "")
          .join(" ")
          .replace(/\s+/g, " ")
          .trim();
        if (text && !found.has(name)) found.set(name, text);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

interface Facts {
  default?: unknown;
  optional: boolean;
  /** what kind of value, when it is not a number: "a URL", "`on`, `off`", ... */
  kind?: string;
  integer?: boolean;
  min?: number;
  max?: number;
}

type Def = Record<string, unknown> & { type: string };
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;
/** a bound someone wrote: `.int()` alone bounds a number by the safe-integer range */
const finite = (value: unknown): value is number =>
  typeof value === "number" && Math.abs(value) < Number.MAX_SAFE_INTEGER;

/** What a variable's schema says: its default, whether it may be unset, what it accepts. */
function facts(schema: unknown, into: Facts = { optional: false }): Facts {
  const def = defOf(schema);
  switch (def.type) {
    case "default":
    case "prefault":
      if (!("default" in into)) into.default = def.defaultValue;
      return facts(def.innerType, into);
    case "optional":
      into.optional = true;
      return facts(def.innerType, into);
    case "pipe":
      facts(def.in, into);
      return facts(def.out, into);
    case "number": {
      const number = schema as { minValue?: unknown; maxValue?: unknown; isInt?: boolean };
      if (number.isInt) into.integer = true;
      if (finite(number.minValue)) into.min = Math.max(into.min ?? -Infinity, number.minValue);
      if (finite(number.maxValue)) into.max = Math.min(into.max ?? Infinity, number.maxValue);
      into.kind = undefined;
      return into;
    }
    case "string": {
      const length = (schema as { minLength?: unknown }).minLength;
      if (def.format === "url") into.kind = "a URL";
      else if (def.format === "email") into.kind = "an e-mail address";
      else if (finite(length) && length > 1) into.kind = `text of ${length}+ characters`;
      else into.kind ??= "text";
      return into;
    }
    case "enum":
      into.kind = Object.values(def.entries as Record<string, string>)
        .map((value) => `\`${value}\``)
        .join(", ");
      return into;
    case "literal":
      into.kind = (def.values as unknown[]).map((value) => `\`${String(value)}\``).join(", ");
      return into;
    case "union":
      into.kind = (def.options as unknown[]).map((option) => accepts(facts(option))).join(" or ");
      return into;
    default:
      return into;
  }
}

/** "an integer from 1 to 5", "a number ≥ 100", "a URL" */
function accepts(fact: Facts): string {
  if (fact.kind !== undefined) return fact.kind;
  const noun = fact.integer ? "an integer" : "a number";
  if (fact.min !== undefined && fact.max !== undefined)
    return `${noun} from ${fact.min} to ${fact.max}`;
  if (fact.min !== undefined) return `${noun} ≥ ${fact.min}`;
  if (fact.max !== undefined) return `${noun} ≤ ${fact.max}`;
  return noun;
}

const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");

const shownDefault = (value: unknown) =>
  value === undefined ? "" : `\`${typeof value === "string" ? value : JSON.stringify(value)}\``;

/** docs/configuration.md, formatted as the repository's Prettier formats it. */
export async function configurationMarkdown(): Promise<string> {
  const shared = docComments(join(packageDir("@pasarela/config"), "src/index.ts"));
  interface Row {
    usedBy: string[];
    schema: unknown;
    docs: string[];
  }
  const rows = new Map<string, Row>();
  for (const [service, schema] of Object.entries(services)) {
    const own = docComments(join(packageDir(`@pasarela/${service}`), "src/config.ts"));
    for (const [name, variable] of Object.entries(schema.shape)) {
      const fresh: Row = { usedBy: [], schema: variable, docs: [] };
      const row = rows.get(name) ?? fresh;
      rows.set(name, row);
      row.usedBy.push(service);
      const doc = own.get(name);
      if (doc) row.docs.push(doc);
    }
  }
  const all = Object.keys(services).length;
  const lines = [
    "# Configuration",
    "",
    "<!-- generated by `npm run docs` from the services' zod configuration schemas; do not edit -->",
    "",
    "Each process reads its variables once at start, from the environment, and stops naming the",
    "variable when one is invalid; an empty value counts as unset. A variable without a default",
    "and not marked optional is required. What `npm start` sets for you, and the settings of the",
    "local stand-ins, are in [operations.md](operations.md#what-npm-start-sets).",
    "",
    "| variable | used by | default | accepts | what it does |",
    "| --- | --- | --- | --- | --- |",
  ];
  for (const [name, row] of rows) {
    const fact = facts(row.schema);
    // a variable several services share is described where it is shared, unless only one says more
    const sharedDoc = shared.get(name);
    const doc = (row.usedBy.length > 1 && sharedDoc) || row.docs[0] || sharedDoc || "";
    const usedBy = row.usedBy.length === all ? "all" : row.usedBy.join(", ");
    const fallback =
      "default" in fact ? shownDefault(fact.default) : fact.optional ? "unset" : "required";
    lines.push(
      `| \`${name}\` | ${usedBy} | ${cell(fallback)} | ${cell(accepts(fact))} | ${cell(doc)} |`,
    );
  }
  return format(lines.join("\n") + "\n", { parser: "markdown" });
}

/** docs/errors.md, formatted as the repository's Prettier formats it. */
export async function errorsMarkdown(): Promise<string> {
  const docs = docComments(join(packageDir("@pasarela/errors"), "src/catalogue.ts"));
  const entries = (Object.keys(catalogue) as ErrorCode[]).map((code) => ({
    code,
    status: statusOfKind[catalogue[code].kind],
    ...catalogue[code],
  }));
  entries.sort((a, b) => a.status - b.status);
  const lines = [
    "# Errors",
    "",
    "<!-- generated by `npm run docs` from shared/errors/src/catalogue.ts; do not edit -->",
    "",
    'Every error but the 401 answers `{"error": "<message>", "code": "<CODE>", "details"?: {...}}`.',
    "`code` is stable and machine-readable; `error` is the exact Spanish text below, or, where the",
    "message names a field, a list of accepted values or a web service, that text completed with",
    "them. The status is the edge's (`services/edge/src/http/status.ts`), from the code's kind.",
    '"Retry" says whether the same request may succeed later without any change. How each status',
    "is used is in [api.md](api.md#errors).",
    "",
    "| status | code | message | retry | when |",
    "| --- | --- | --- | --- | --- |",
  ];
  for (const entry of entries) {
    lines.push(
      `| ${entry.status} | \`${entry.code}\` | ${cell(entry.message)} | ${entry.retryable ? "yes" : "no"} | ${cell(docs.get(entry.code) ?? "")} |`,
    );
  }
  return format(lines.join("\n") + "\n", { parser: "markdown" });
}

/** The generated files, by their path under the repository's root. */
export async function generatedDocs(): Promise<Record<string, string>> {
  return {
    "docs/configuration.md": await configurationMarkdown(),
    "docs/errors.md": await errorsMarkdown(),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const [path, text] of Object.entries(await generatedDocs())) {
    writeFileSync(join(repoRoot, path), text);
    process.stdout.write(`wrote ${path}\n`);
  }
}
