import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/cli.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";

/**
 * The walk-throughs of the README and docs/walkthrough.md, run as written. Each ```sh block
 * after a `<!-- walkthrough: <name> -->` line is run with bash, in order, in the repository's
 * folder, against a started stack, the way a reader pastes it into a terminal: the variables
 * a block sets are there for the next ones, and the stack's addresses come in the variables the
 * docs name (GATEWAY, SIM_URL, PAYMENTS_SIM_URL, MAIL_DIR, and NATS_URL/NATS_PREFIX for the
 * operator CLI). A block that fails, or whose output stops saying what the docs say, fails here.
 */

const sources = ["README.md", "docs/walkthrough.md"];

interface Block {
  name: string;
  file: string;
  script: string;
}

function markedBlocks(): Block[] {
  const blocks: Block[] = [];
  for (const file of sources) {
    const text = readFileSync(join(repoRoot, file), "utf8");
    const marked = /<!-- walkthrough: ([a-z0-9-]+) -->\s*\n```sh\n([\s\S]*?)\n```/g;
    for (const match of text.matchAll(marked)) {
      blocks.push({ name: match[1]!, file, script: match[2]! });
    }
  }
  return blocks;
}

/** What each block's output must show, beyond a zero exit. */
const checks: Record<string, (out: string) => void> = {
  account: (out) => {
    expect(JSON.parse(out)).toMatchObject({ scope: "read_write" });
  },
  "first-query": (out) => {
    expect(out).toContain(`{"cbteNro":0,"ptoVta":3,"cbteTipo":6}`);
  },
  "factura-b": (out) => {
    const answer = JSON.parse(out) as Record<string, unknown>;
    expect(answer).toMatchObject({ resultado: "A", cbteNro: 1, ptoVta: 3, cbteTipo: 6 });
    expect(answer.cae).toMatch(/^\d{14}$/);
    expect(answer.pdfUrl).toMatch(/\/comprobantes\/[\w-]+\.pdf$/);
  },
  "factura-e": (out) => {
    // after what the simulator's commands print, the issuance's answer
    const answer = JSON.parse(out.trim().split("\n").at(-1)!) as Record<string, unknown>;
    expect(answer).toMatchObject({
      resultado: "A",
      cbteNro: 1,
      ptoVta: 7,
      cbteTipo: 19,
      moneda: "DOL",
      impTotal: documented("factura-e", "impTotal"),
    });
    expect(answer.cae).toMatch(/^\d{14}$/);
    expect(answer.cotizacion).toEqual(expect.any(Number));
    expect(answer.pdfUrl).toMatch(/\/comprobantes\/[\w-]+\.pdf$/);
  },
  "factura-a": (out) => {
    const answer = JSON.parse(out) as Record<string, unknown>;
    expect(answer).toMatchObject({ resultado: "A", cbteNro: 1, ptoVta: 3, cbteTipo: 1 });
    expect(answer.cae).toMatch(/^\d{14}$/);
    expect(answer.impTotal).toBe(documented("factura-a", "impTotal"));
  },
  pdf: (out) => {
    expect(out).toMatch(/^%PDF-1\.\d/m);
    expect(out).toContain("the link serves the same original");
  },
  email: (out) => {
    expect(out).toContain(`{"to":"compras@cliente.com.ar","status":"pending"}`);
    expect(out).toContain(`"email":{"to":"compras@cliente.com.ar","status":"sent","error":null}`);
    const listed = JSON.parse(out.trim().split("\n").at(-1)!) as {
      messages: { to: string[]; subject: string; attachments: unknown[] }[];
    };
    expect(listed.messages).toHaveLength(1);
    expect(listed.messages[0]).toMatchObject({
      to: ["compras@cliente.com.ar"],
      subject: "Factura A 00003-00000001 de CUIT 20111111112",
    });
    expect(listed.messages[0]!.attachments).toHaveLength(1);
  },
  "payment-link": (out) => {
    expect(out).toContain(`"provider":"mercadopago"`);
    const lines = out.trim().split("\n");
    const created = JSON.parse(lines.find((line) => line.includes(`"pendiente"`))!) as Record<
      string,
      unknown
    >;
    expect(created).toMatchObject({ estado: "pendiente", moneda: "ARS" });
    expect(created.monto).toBe(documented("factura-a", "impTotal"));
    const paid = JSON.parse(lines.at(-1)!) as Record<string, unknown>;
    expect(paid).toMatchObject({ id: created.id, estado: "pagado" });
    expect(paid.pagadoAt).toEqual(expect.any(String));
  },
  replay: (out) => {
    expect(out).toContain("same answer, byte for byte");
    expect(JSON.parse(out.trim().split("\n").at(-1)!)).toMatchObject({
      code: "IDEMPOTENCY_KEY_REUSED",
    });
  },
};

/** A number the docs print in a block's expected-output comment, e.g. `"impTotal":1946.66`. */
function documented(block: string, field: string): number {
  const script = markedBlocks().find((b) => b.name === block)!.script;
  const match = new RegExp(`^#.*"${field}":([\\d.]+)`, "m").exec(script);
  if (!match) throw new Error(`the ${block} block prints no ${field}`);
  return Number(match[1]);
}

/** Every variable a block assigns at the start of a line, to carry over to the next blocks. */
const assigned = (blocks: Block[]) => [
  ...new Set(
    blocks.flatMap((b) => [...b.script.matchAll(/^([A-Z_][A-Z0-9_]*)=/gm)].map((m) => m[1]!)),
  ),
];

function bash(
  script: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn("bash", ["-c", script], {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

describe("the docs' walk-throughs, run as written", () => {
  const blocks = markedBlocks();
  const variables = assigned(blocks);
  let stack: E2EStack;
  let dir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "walkthrough-"));
    const mailDir = join(dir, "mail");
    stack = await startE2EStack({ paymentsSimulator: true, mailSinkDir: mailDir });
    // what a reader sets from `npm start`'s addresses; the operator CLI finds the stack by NATS
    env = {
      GATEWAY: stack.edgeUrl,
      SIM_URL: stack.simulatorUrl!,
      PAYMENTS_SIM_URL: stack.paymentsSimulatorUrl!,
      MAIL_DIR: mailDir,
      NATS_URL: stack.env.NATS_URL!,
      NATS_PREFIX: stack.env.NATS_PREFIX ?? "",
      STATE: join(dir, "state.sh"),
    };
    writeFileSync(env.STATE!, "");
  });

  afterAll(async () => {
    await stack?.teardown();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("marks the walk-throughs the docs promise, in order", () => {
    expect(blocks.map((b) => b.name)).toEqual([
      "account",
      "first-query",
      "factura-b",
      "factura-e",
      "factura-a",
      "pdf",
      "email",
      "payment-link",
      "replay",
    ]);
    expect(Object.keys(checks)).toEqual(blocks.map((b) => b.name));
  });

  for (const block of blocks) {
    it(`${block.file}: ${block.name}`, { timeout: 120_000 }, async () => {
      const script = [
        "set -euo pipefail",
        `source "$STATE"`,
        block.script,
        `{ declare -p ${variables.join(" ")} 2>/dev/null || true; } > "$STATE.next"`,
      ].join("\n");
      const run = await bash(script, env);
      expect(run.code, `${block.name} exited ${run.code}:\n${run.stdout}\n${run.stderr}`).toBe(0);
      renameSync(`${env.STATE!}.next`, env.STATE!);
      checks[block.name]!(run.stdout);
    });
  }
});
