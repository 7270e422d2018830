import { createHmac, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";

/**
 * A local Mercado Pago: the endpoints the gateway's adapter calls, with the documented request
 * and answer shapes, and the signed notification a payment triggers. State lives in memory.
 *
 *   POST /checkout/preferences         (Bearer <access token>) → 201 {id, init_point, ...}
 *   GET  /v1/payments/{id}             (Bearer, the preference owner's) → the payment
 *   GET  /checkout/v1/redirect?pref_id (the payer's page) and POST /checkout/v1/pay
 *   POST /_control/accounts {accessToken, webhookSecret}
 *   POST /_control/pay {preferenceId, status?, notify?} → {paymentId, notification?: {url, headers, body, status}}
 *   GET  /_control/health
 */
export interface PaymentsSimulator {
  readonly url: string;
  stop(): Promise<void>;
}

interface Account {
  webhookSecret: string;
  userId: number;
}

interface StoredPreference {
  id: string;
  accessToken: string;
  body: Record<string, unknown>;
  unitPrice: number;
  currency: string;
  externalReference: string | null;
  notificationUrl: string | null;
  expiresAt: string | null;
  createdAt: string;
}

interface StoredPayment {
  id: number;
  preferenceId: string;
  accessToken: string;
  status: string;
  body: Record<string, unknown>;
}

/** Mercado Pago's documented webhook signature, written from its documentation. */
export function mercadoPagoSignature(
  secret: string,
  dataId: string,
  requestId: string,
  ts: number,
): string {
  const manifest = `id:${dataId.toLowerCase()};request-id:${requestId};ts:${ts};`;
  return `ts=${ts},v1=${createHmac("sha256", secret).update(manifest).digest("hex")}`;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json" });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 1024 * 1024) throw new Error("body too large");
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startPaymentsSimulator(
  options: { port?: number; host?: string } = {},
): Promise<PaymentsSimulator> {
  const accounts = new Map<string, Account>();
  const preferences = new Map<string, StoredPreference>();
  const payments = new Map<number, StoredPayment>();
  let nextPayment = 1_000_000_001;
  let url = "";

  const tokenOf = (req: IncomingMessage): (Account & { token: string }) | undefined => {
    const header = req.headers.authorization ?? "";
    const token = header.startsWith("Bearer ") ? header.slice(7) : "";
    const account = accounts.get(token);
    return account ? { ...account, token } : undefined;
  };
  const unauthorized = (res: ServerResponse) =>
    send(res, 401, {
      message: "invalid access token",
      error: "unauthorized",
      status: 401,
      cause: [],
    });

  async function pay(preferenceId: string, status: string, notify = true) {
    const preference = preferences.get(preferenceId);
    if (!preference) return undefined;
    const account = accounts.get(preference.accessToken);
    const id = nextPayment++;
    const now = new Date().toISOString();
    const body = {
      id,
      status,
      status_detail: status === "approved" ? "accredited" : "cc_rejected_other_reason",
      external_reference: preference.externalReference,
      transaction_amount: preference.unitPrice,
      currency_id: preference.currency,
      date_created: now,
      date_approved: status === "approved" ? now : null,
      payment_method_id: "account_money",
      live_mode: false,
      collector_id: account?.userId ?? 0,
    };
    payments.set(id, { id, preferenceId, accessToken: preference.accessToken, status, body });
    let notification: Record<string, unknown> | undefined;
    if (notify && preference.notificationUrl && account) {
      const requestId = randomUUID();
      const ts = Math.floor(Date.now() / 1000);
      const target = new URL(preference.notificationUrl);
      target.searchParams.set("data.id", String(id));
      target.searchParams.set("type", "payment");
      const headers = {
        "content-type": "application/json",
        "x-signature": mercadoPagoSignature(account.webhookSecret, String(id), requestId, ts),
        "x-request-id": requestId,
      };
      const payload = {
        action: "payment.created",
        api_version: "v1",
        data: { id: String(id) },
        date_created: now,
        id: nextPayment++,
        live_mode: false,
        type: "payment",
        user_id: String(account.userId),
      };
      let deliveredStatus: number | string;
      try {
        const answer = await fetch(target, {
          method: "POST",
          headers,
          body: JSON.stringify(payload),
          signal: AbortSignal.timeout(15_000),
        });
        deliveredStatus = answer.status;
      } catch (error) {
        deliveredStatus = (error as Error).message;
      }
      notification = { url: target.toString(), headers, body: payload, status: deliveredStatus };
    }
    return { paymentId: String(id), notification };
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = new URL(req.url ?? "/", "http://sim");
    const path = target.pathname;
    if (req.method === "GET" && path === "/_control/health") return send(res, 200, { ok: true });
    if (req.method === "POST" && path === "/_control/accounts") {
      const body = JSON.parse(await readBody(req)) as {
        accessToken?: string;
        webhookSecret?: string;
      };
      if (!body.accessToken || !body.webhookSecret)
        return send(res, 400, { message: "accessToken and webhookSecret" });
      accounts.set(body.accessToken, {
        webhookSecret: body.webhookSecret,
        userId: 100000 + accounts.size,
      });
      return send(res, 201, { ok: true });
    }
    if (req.method === "POST" && path === "/_control/pay") {
      const body = JSON.parse(await readBody(req)) as {
        preferenceId?: string;
        status?: string;
        notify?: boolean;
      };
      const paid = await pay(
        body.preferenceId ?? "",
        body.status ?? "approved",
        body.notify ?? true,
      );
      return paid ? send(res, 201, paid) : send(res, 404, { message: "preference not found" });
    }
    if (req.method === "POST" && path === "/checkout/preferences") {
      const account = tokenOf(req);
      if (!account) return unauthorized(res);
      const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
      const items = body.items as
        { unit_price?: unknown; currency_id?: unknown; title?: unknown }[] | undefined;
      const item = items?.[0];
      if (!item || typeof item.unit_price !== "number" || item.unit_price <= 0) {
        return send(res, 400, {
          message: "items.unit_price must be a positive number",
          error: "bad_request",
          status: 400,
        });
      }
      const id = `${account.userId}-${randomUUID()}`;
      const stored: StoredPreference = {
        id,
        accessToken: account.token,
        body,
        unitPrice: item.unit_price,
        currency: typeof item.currency_id === "string" ? item.currency_id : "ARS",
        externalReference:
          typeof body.external_reference === "string" ? body.external_reference : null,
        notificationUrl: typeof body.notification_url === "string" ? body.notification_url : null,
        expiresAt: typeof body.expiration_date_to === "string" ? body.expiration_date_to : null,
        createdAt: new Date().toISOString(),
      };
      preferences.set(id, stored);
      const initPoint = `${url}/checkout/v1/redirect?pref_id=${encodeURIComponent(id)}`;
      return send(res, 201, {
        ...body,
        id,
        collector_id: account.userId,
        date_created: stored.createdAt,
        init_point: initPoint,
        sandbox_init_point: initPoint,
        operation_type: "regular_payment",
      });
    }
    const paymentPath = /^\/v1\/payments\/(\d+)$/.exec(path);
    if (req.method === "GET" && paymentPath) {
      const account = tokenOf(req);
      if (!account) return unauthorized(res);
      const payment = payments.get(Number(paymentPath[1]));
      if (!payment || payment.accessToken !== account.token) {
        return send(res, 404, {
          message: "Payment not found",
          error: "not_found",
          status: 404,
          cause: [],
        });
      }
      return send(res, 200, payment.body);
    }
    if (req.method === "GET" && path === "/checkout/v1/redirect") {
      const preference = preferences.get(target.searchParams.get("pref_id") ?? "");
      if (!preference) return send(res, 404, { message: "preference not found" });
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(`<!doctype html><html lang="es"><body><h1>Mercado Pago (simulador local)</h1>
<p>Pagás $ ${preference.unitPrice.toFixed(2)} ${escapeHtml(preference.currency)}</p>
<form method="post" action="/checkout/v1/pay"><input type="hidden" name="pref_id" value="${escapeHtml(preference.id)}"><button>Pagar</button></form>
</body></html>`);
      return;
    }
    if (req.method === "POST" && path === "/checkout/v1/pay") {
      const form = new URLSearchParams(await readBody(req));
      const paid = await pay(form.get("pref_id") ?? "", "approved");
      res.writeHead(paid ? 200 : 404, { "content-type": "text/html; charset=utf-8" });
      res.end(
        paid
          ? `<!doctype html><html lang="es"><body><h1>Pago aprobado</h1><p>Pago ${paid.paymentId}</p></body></html>`
          : "no encontrado",
      );
      return;
    }
    send(res, 404, { message: "not found", status: 404 });
  }

  const server = createServer((req, res) => {
    route(req, res).catch((error: unknown) =>
      send(res, 400, { message: (error as Error).message }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  url = `http://127.0.0.1:${port}`;
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The stand-in as `npm start` and docker-compose run it: PAYMENTS_SIM_PORT (4500) and
 * PAYMENTS_SIM_HOST (127.0.0.1) say where it listens; its address is logged once it does.
 */
export async function startPaymentsSimulatorFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ stop(): Promise<void> }> {
  const port = Number(env.PAYMENTS_SIM_PORT ?? 4500);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`PAYMENTS_SIM_PORT (invalid): ${env.PAYMENTS_SIM_PORT} is not a port`);
  }
  const sim = await startPaymentsSimulator({ port, host: env.PAYMENTS_SIM_HOST ?? "127.0.0.1" });
  process.stdout.write(
    `${JSON.stringify({ level: "info", service: "payments-sim", url: sim.url, msg: "local Mercado Pago listening" })}\n`,
  );
  return { stop: () => sim.stop() };
}
