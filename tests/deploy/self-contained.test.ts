import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "./support.js";

/**
 * The project explains itself: no tracked text (code, comments, messages, OpenAPI descriptions,
 * tests, docs, deploy files) may send its reader to a document the reader does not have, by
 * section number or by name, or speak of how the project is developed. Where a reason is
 * needed, the text states the reason itself.
 *
 * Allowed on purpose, so the patterns below stay narrow:
 * - `spec` as a name in code: a Kubernetes object's `spec:`, a schema held in a variable
 *   (`spec.ns`, `(spec, op)`, `const spec =`), an npm package path (`@standard-schema/spec`);
 * - "specific", "inspect", "respect" and other words that merely contain the letters;
 * - "specification" of a public, third-party standard (RG 4892's QR, OpenAPI, Standard
 *   Webhooks): the reader can find those; the product's own document is what is barred;
 * - "architecture" in lower case, an ordinary word;
 * - "the references" (plural: what a request refers to, a customer or a product);
 * - a public standard's section, written out ("RFC 9112, section 3.2"): the section sign
 *   itself is barred because every use of it here pointed into the unpublished documents.
 */
const FORBIDDEN: { name: string; pattern: RegExp }[] = [
  { name: "a section sign", pattern: /§/ },
  { name: "the authority reference file", pattern: /authority-ws/i },
  { name: "the product specification file", pattern: /gateway-spec/i },
  { name: "the architecture document", pattern: /\bARCHITECTURE\b/ },
  { name: "the style document", pattern: /\bSTYLE\.md\b/i },
  // "spec" as a word of prose; a code name is followed by `.`, `:`, `?`, `,`, `)`, `]` or `=`
  { name: "the word spec", pattern: /(?<![\w./@-])spec(?![\w-]|\s*[.:?,)\]=])/i },
  { name: "the spec", pattern: /\bthe spec\b/i },
  { name: "a parenthesis opening with spec", pattern: /(?:^|\s)\(spec\b/i },
  { name: "a comment opening with spec", pattern: /(?:\/\/|\/?\*|#)\s*spec\b/i },
  { name: "the product's specification", pattern: /\b(?:product|gateway)(?:'s)? spec/i },
  { name: "the reference document", pattern: /\bthe reference(?:'s)?\b|\breference's\b/i },
  // how the project is developed
  { name: "an issue number", pattern: /\bissues? #\d|\(issues? \d/i },
  { name: "the product owner", pattern: /\bproduct owner\b/i },
  { name: "a newcomer run", pattern: /\bnewcomer/i },
  { name: "a development tool", pattern: /\bfarm-\w/i },
  { name: "a probe run during development", pattern: /\bhostile probe/i },
];

/** This file, which has to spell out what it looks for. */
const SELF = "tests/deploy/self-contained.test.ts";

const skipped = (path: string): boolean =>
  path === SELF || /(^|\/)(node_modules|dist)\//.test(path);

/** `path:line: text` for every line of `text` that matches a forbidden pattern. */
function findings(path: string, text: string): string[] {
  return text.split("\n").flatMap((line, i) => {
    const hit = FORBIDDEN.find(({ pattern }) => pattern.test(line));
    return hit ? [`${path}:${i + 1}: ${hit.name}: ${line.trim()}`] : [];
  });
}

describe("the project speaks of itself only", () => {
  it("finds the citations and development talk it is meant to find, and nothing else", () => {
    const caught = [
      "/** Spec §7.4 rule 2 (422): class C vouchers carry no itemized VAT. */",
      "// the message is the spec's text to the letter",
      "blocked points are listed too (authority-ws.md §3.2)",
      "billing admits the issuance (ARCHITECTURE §5 step 1)",
      "see ../shared/spec/gateway-spec.md",
      "as STYLE.md says",
      "exactly as the spec.",
      "Filters of the history (spec: from/to, route, status)",
      "// Spec: the default is today",
      "the reference gives no code of its own",
      "in the reference's element names",
      " * reference's inference, on a line of its own",
      "the product specification",
      "`wsfe.factura.issue` (issues 10, 11)",
      "found by a newcomer run",
      "as farm-bench measured",
    ];
    for (const line of caught) expect(findings("x", line), line).toHaveLength(1);

    const allowed = [
      "  spec:",
      "    spec:",
      "const spec = deployment!.spec as { replicas: number };",
      "function readParams(spec: JaxwsServiceSpec, op: string) {",
      "() => runPadron(world, spec, parsed.op, parsed.body),",
      "for (const [name, spec] of Object.entries(PARAMS)) {",
      "spec?: Record<string, unknown>;",
      '"node_modules/@standard-schema/spec": {',
      "a specific point of sale; inspect it with respect to the rules",
      "both keys are optional in the RG 4892 specification",
      "the Standard Webhooks specification",
      "the architecture of the gateway",
      "answers before anything the references say",
      "HTTP/1.1 requires a Host header (RFC 9112, section 3.2)",
      "WSAA issues 12 h tickets; the voucher it issued",
      "refuses hostile input with a 400",
    ];
    for (const line of allowed) expect(findings("x", line), line).toEqual([]);
  });

  it("no tracked text file cites the unpublished documents or the way the project is made", () => {
    const listed = spawnSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" });
    expect(listed.status, listed.stderr).toBe(0);
    const paths = listed.stdout.split("\0").filter((p) => p !== "" && !skipped(p));
    expect(paths.length).toBeGreaterThan(100);

    const found = paths.flatMap((path) => {
      let bytes: Buffer;
      try {
        bytes = readFileSync(join(root, path));
      } catch {
        return []; // deleted in the work tree, not yet in the index
      }
      if (bytes.subarray(0, 8000).includes(0)) return []; // binary: images, fonts
      return findings(path, bytes.toString("utf8"));
    });
    expect(found).toEqual([]);
  });
});
