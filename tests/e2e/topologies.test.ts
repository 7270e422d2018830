import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gatewayServices, type Topology } from "@pasarela/stack";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  http,
  newAccount,
  registerWsfeIssuer,
  scratch,
  type Account,
  type Registered,
  type Scratch,
} from "../support/operator.js";
import { repoRoot } from "../support/cli.js";
import { pdfText } from "../support/pdf.js";
import { scrapeMetrics } from "../support/prometheus.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";
import { eventually } from "../support/wait.js";

const env = "homologacion" as const;
const PTO_VTA = 5;

interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * The same code in both topologies: every service in one process (`npm start`'s default) and
 * one process per service (production's), each put through the same walk of an issuance, a
 * query, its printed voucher and its webhook, and each showing the processes it says it runs.
 */
describe.each<Topology>(["one", "processes"])("the gateway with topology %s", (topology) => {
  let stack: E2EStack;
  let dir: Scratch;
  let account: Account;
  let issuer: Registered;
  let receiver: Server;
  let receiverUrl: string;
  const deliveries: Delivery[] = [];

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        deliveries.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
        res.writeHead(200).end("ok");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    stack = await startE2EStack({ topology, env: { LOG_LEVEL: "warn" } });
    dir = scratch();
    account = await newAccount(stack, `Topología ${topology}`);
    issuer = await registerWsfeIssuer(stack, dir, account.accountId, env, PTO_VTA);
  });

  afterAll(async () => {
    await stack?.teardown();
    dir?.remove();
    receiver?.closeAllConnections();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it("runs the processes its topology names", () => {
    expect(stack.topology).toBe(topology);
    const pids = gatewayServices.map((name) => stack.pid(name));
    expect(pids.every((pid) => pid !== undefined)).toBe(true);
    expect(new Set(pids).size).toBe(topology === "one" ? 1 : gatewayServices.length);
  });

  it("issues a voucher, answers a query, prints it and delivers its webhook", async () => {
    const webhook = await http(stack, "POST", "/api/webhooks", account.rw, {
      url: receiverUrl,
      eventos: ["comprobante.autorizado"],
    });
    expect(webhook.status, webhook.text).toBe(201);
    const { secreto } = webhook.json<{ secreto: string }>();

    const issued = await http(stack, "POST", "/api/wsfe/facturas", account.rw, {
      environment: env,
      representada: issuer.cuit,
      ptoVta: PTO_VTA,
      cbteTipo: 11,
      concepto: 1,
      docTipo: 99,
      docNro: "0",
      condicionIvaReceptorId: 5,
      items: [
        { descripcion: "Clase de guitarra", cantidad: 1, precioUnitario: "1500", alicuotaIva: 0 },
      ],
    });
    expect(issued.status, issued.text).toBe(200);
    const factura = issued.json<{
      resultado: string;
      cbteNro: number;
      cae: string;
      pdfUrl: string;
    }>();
    expect(factura).toMatchObject({ resultado: "A", cbteNro: 1 });
    expect(factura.cae).toMatch(/^\d{14}$/);

    const ultimo = await http(stack, "POST", "/api/wsfe/ultimo-comprobante", account.ro, {
      environment: env,
      representada: issuer.cuit,
      ptoVta: PTO_VTA,
      cbteTipo: 11,
    });
    expect(ultimo.status, ultimo.text).toBe(200);
    expect(ultimo.json()).toMatchObject({ cbteNro: 1, ptoVta: PTO_VTA, cbteTipo: 11 });

    const pdf = await fetch(factura.pdfUrl);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const file = dir.file("factura.pdf", "");
    writeFileSync(file, Buffer.from(await pdf.arrayBuffer()));
    expect(pdfText(file)).toContain(factura.cae);

    const [delivery] = await eventually("the webhook delivered", () =>
      deliveries.length > 0 ? deliveries : undefined,
    );
    const payload = new Webhook(secreto).verify(
      delivery!.body,
      delivery!.headers as Record<string, string>,
    );
    expect(payload).toMatchObject({ tipo: "comprobante.autorizado", data: factura });
  });

  it("labels every series with the service that recorded it", async () => {
    const urls = new Set(gatewayServices.map((name) => stack.metricsUrls[name]));
    expect(urls.size).toBe(topology === "one" ? 1 : gatewayServices.length);
    // the issuance above: the edge asked wsfe, wsfe asked billing and ticket, each its own series
    const handled = (await scrapeMetrics(stack.metricsUrls.wsfe!, "wsfe")).filter(
      (s) => s.name === "pasarela_bus_handled_total",
    );
    expect(handled.some((s) => s.labels.subject?.endsWith("wsfe.factura.issue"))).toBe(true);
    expect(handled.every((s) => !s.labels.subject?.endsWith("billing.key.verify"))).toBe(true);
    const billing = (await scrapeMetrics(stack.metricsUrls.billing!, "billing")).filter(
      (s) => s.name === "pasarela_bus_handled_total",
    );
    expect(billing.some((s) => s.labels.subject?.endsWith("billing.factura.admit"))).toBe(true);
    const edge = (await scrapeMetrics(stack.metricsUrls.edge!, "edge")).filter(
      (s) => s.name === "pasarela_http_requests_total",
    );
    expect(edge.some((s) => s.labels.route === "/api/wsfe/facturas")).toBe(true);
    // Node's own metrics describe the process: the one of them all, or the service's own
    const heap = (await scrapeMetrics(stack.metricsUrls.wsfe!)).find(
      (s) => s.name === "nodejs_heap_size_used_bytes",
    );
    expect(heap?.labels.service).toBe(topology === "one" ? "all" : "wsfe");
  });
});

describe("one process that cannot start one of its services", () => {
  it("exits 1 naming each service that did not start and why", async () => {
    const key = () => randomBytes(32).toString("base64");
    const child = spawn(process.execPath, [join(repoRoot, "server/dist/src/main.js"), "all"], {
      env: {
        ...process.env,
        // nothing answers there: the others fail too, each on its own line
        NATS_URL: "nats://127.0.0.1:1",
        DATABASE_URL: "postgres://postgres@127.0.0.1:1/nada",
        API_KEY_PEPPER: key(),
        KEY_ENCRYPTION_KEY: key(),
        CURSOR_KEY: key(),
        // wsfe's own value is wrong; every other service reads the process's
        WSFE__CURSOR_KEY: "short",
        WSFE__RECONCILE_INTERVAL_MS: "10",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(1);
    const fatal = stderr
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { level: string; service: string; msg: string });
    const wsfe = fatal.find((line) => line.service === "wsfe");
    expect(wsfe).toMatchObject({ level: "fatal" });
    expect(wsfe?.msg).toContain("CURSOR_KEY (invalid): must be exactly 32 bytes");
    expect(wsfe?.msg).toContain("RECONCILE_INTERVAL_MS (invalid)");
    // every other service fails on its own reason (nothing answers), and the edge, which starts
    // once the others have, is never started
    const others = fatal.filter((line) => line.service !== "wsfe");
    expect(others.length).toBeGreaterThan(0);
    for (const line of others) expect(line.msg, line.service).not.toContain("CURSOR_KEY");
    expect(fatal.map((line) => line.service)).not.toContain("edge");
  });
});
