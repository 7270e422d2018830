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

describe("layers: domain/ imports nothing that reaches the outside world", () => {
  it.each([
    ['import { makeRepository } from "../db/repositories/x.js";', "db/"],
    ['import type { Row } from "../../db/repositories/x.js";', "db/"],
    ['import { store } from "../adapters/storage.js";', "db/, adapters/"],
    ['import type { Bus } from "@pasarela/bus";', "messaging"],
    ['import { connect } from "@nats-io/transport-node";', "messaging"],
    ['import { jetstream } from "@nats-io/jetstream";', "messaging"],
    ['import { consumeJobs } from "@pasarela/bus/src/jobs.js";', "messaging"],
    ['import { sql } from "kysely";', "database"],
    ['import postgres from "postgres";', "database"],
    ['import { isUniqueViolation } from "@pasarela/db";', "database"],
    ['import soap from "soap";', "authority"],
    ['import { makeAuthorityClient } from "@pasarela/authority";', "authority"],
    ['import PDFDocument from "pdfkit";', "drawing PDFs"],
    ['import type { Font } from "fontkit";', "drawing PDFs"],
    ['import PDFDocument from "pdfkit/js/pdfkit.standalone.js";', "drawing PDFs"],
    ['import { readFileSync } from "node:fs";', "node I/O"],
    ['import { readFile } from "fs/promises";', "node I/O"],
    ['import { request } from "node:https";', "node I/O"],
    ['import { spawn } from "node:child_process";', "node I/O"],
    ['export { createServer } from "node:net";', "node I/O"],
  ])("refuses %s", async (code, why) => {
    const errors = await importErrors(`${code}\n`, DOMAIN);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.ruleId).toBe("no-restricted-imports");
    expect(errors[0]!.message).toContain("domain/ holds pure rules");
    expect(errors[0]!.message).toContain(why);
  });

  it("accepts node:crypto and the pure libraries", async () => {
    const code = [
      'import { createHash } from "node:crypto";',
      'import Big from "big.js";',
      'import forge from "node-forge";',
      'import QRCode from "qrcode";',
      'import { z } from "zod";',
      'import { wsfe } from "@pasarela/contracts";',
      'import { appError } from "@pasarela/errors";',
      'import { importe } from "./format.js";',
      'import { argentinaDate } from "../parametros.js";',
      "export const used = [createHash, Big, forge, QRCode, z, wsfe, appError, importe, argentinaDate];",
      "",
    ].join("\n");
    expect(await importErrors(code, DOMAIN)).toEqual([]);
    expect(await importErrors(code, "services/pdf/src/domain/deep/y.ts")).toEqual([]);
  });

  it("holds in every service's domain/, nested folders included", async () => {
    const code = 'import PDFDocument from "pdfkit";\nexport const doc = PDFDocument;\n';
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
      'import { readFileSync } from "node:fs";',
      'import PDFDocument from "pdfkit";',
      'import type { Bus } from "@pasarela/bus";',
      'import { makeRepository } from "../db/repositories/x.js";',
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
