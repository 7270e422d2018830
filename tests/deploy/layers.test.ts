import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";
import { root } from "./support.js";

/**
 * A service's domain/ holds its pure rules: the linter refuses there what reaches the outside
 * world (db/, the bus, the database, NATS, SOAP, PDF drawing, node I/O), with a message that
 * says why, and lets pure libraries through. The rule is the repository's own eslint.config.js;
 * only type-aware parsing is turned off, since the files linted here exist only as text.
 */
const eslint = new ESLint({
  cwd: root,
  overrideConfig: { files: ["**/*.ts"], ...tseslint.configs.disableTypeChecked },
});

async function importErrors(code: string, filePath: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter(
    (message) => message.ruleId === "no-restricted-imports" || message.fatal,
  );
}

const DOMAIN = "services/wsfe/src/domain/x.ts";

/**
 * One line of sample code, the clause then its quoted source: built this way so the sample is not read
 * as this file's own import by the test that checks dependencies are declared.
 */
const line = (clause: string, source: string) => `${clause} from ${JSON.stringify(source)};`;

describe("layers: domain/ imports nothing that reaches the outside world", () => {
  it.each([
    [line("import { makeRepository }", "../db/repositories/x.js"), "db/"],
    [line("import type { Row }", "../../db/repositories/x.js"), "db/"],
    [line("import { store }", "../adapters/storage.js"), "db/, adapters/"],
    [line("import type { Bus }", "@pasarela/bus"), "messaging"],
    [line("import { connect }", "@nats-io/transport-node"), "messaging"],
    [line("import { jetstream }", "@nats-io/jetstream"), "messaging"],
    [line("import { consumeJobs }", "@pasarela/bus/src/jobs.js"), "messaging"],
    [line("import { sql }", "kysely"), "database"],
    [line("import postgres", "postgres"), "database"],
    [line("import { isUniqueViolation }", "@pasarela/db"), "database"],
    [line("import soap", "soap"), "authority"],
    [line("import { makeAuthorityClient }", "@pasarela/authority"), "authority"],
    [line("import PDFDocument", "pdfkit"), "drawing PDFs"],
    [line("import type { Font }", "fontkit"), "drawing PDFs"],
    [line("import PDFDocument", "pdfkit/js/pdfkit.standalone.js"), "drawing PDFs"],
    [line("import { readFileSync }", "node:fs"), "node I/O"],
    [line("import { readFile }", "fs/promises"), "node I/O"],
    [line("import { request }", "node:https"), "node I/O"],
    [line("import { spawn }", "node:child_process"), "node I/O"],
    [line("export { createServer }", "node:net"), "node I/O"],
  ])("refuses %s", async (code, why) => {
    const errors = await importErrors(`${code}\n`, DOMAIN);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.ruleId).toBe("no-restricted-imports");
    expect(errors[0]!.message).toContain("domain/ holds pure rules");
    expect(errors[0]!.message).toContain(why);
  });

  it("accepts node:crypto and the pure libraries", async () => {
    const code = [
      line("import { createHash }", "node:crypto"),
      line("import Big", "big.js"),
      line("import forge", "node-forge"),
      line("import QRCode", "qrcode"),
      line("import { z }", "zod"),
      line("import { wsfe }", "@pasarela/contracts"),
      line("import { appError }", "@pasarela/errors"),
      line("import { importe }", "./format.js"),
      line("import { argentinaDate }", "../parametros.js"),
      "export const used = [createHash, Big, forge, QRCode, z, wsfe, appError, importe, argentinaDate];",
      "",
    ].join("\n");
    expect(await importErrors(code, DOMAIN)).toEqual([]);
    expect(await importErrors(code, "services/pdf/src/domain/deep/y.ts")).toEqual([]);
  });

  it("holds in every service's domain/, nested folders included", async () => {
    const code = `${line("import PDFDocument", "pdfkit")}\nexport const doc = PDFDocument;\n`;
    for (const file of [
      "services/pdf/src/domain/x.ts",
      "services/billing/src/domain/x.ts",
      "services/wsfe/src/domain/issuance/x.ts",
    ]) {
      expect((await importErrors(code, file)).map((m) => m.ruleId)).toEqual([
        "no-restricted-imports",
      ]);
    }
  });

  it("does not apply outside domain/", async () => {
    const code = [
      line("import { readFileSync }", "node:fs"),
      line("import PDFDocument", "pdfkit"),
      line("import type { Bus }", "@pasarela/bus"),
      line("import { makeRepository }", "../db/repositories/x.js"),
      "export const used = [readFileSync, PDFDocument, makeRepository];",
      "export type B = Bus;",
      "",
    ].join("\n");
    for (const file of [
      "services/pdf/src/adapters/layout/x.ts",
      "services/wsfe/src/flows/x.ts",
      "services/ticket/src/handlers/x.ts",
      "shared/bus/src/x.ts",
    ]) {
      expect(await importErrors(code, file)).toEqual([]);
    }
  });
});
