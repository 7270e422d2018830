import Big from "big.js";
import { z } from "zod";
import type {
  Payment,
  PaymentProvider,
  Preference,
  PreferenceRequest,
  ProviderResult,
} from "../domain/provider.js";

const TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 1024 * 1024;

/** Checkout Pro's answer to POST /checkout/preferences: only what we use. */
const preferenceAnswer = z.object({ id: z.string().min(1), init_point: z.url() });

/** GET /v1/payments/{id}: only what we use. */
const paymentAnswer = z.object({
  id: z.union([z.number(), z.string()]),
  status: z.string(),
  external_reference: z.string().nullable().optional(),
  transaction_amount: z.union([z.number(), z.string()]),
  currency_id: z.string(),
  date_approved: z.string().nullable().optional(),
});

/**
 * Mercado Pago over its REST API (Checkout Pro preferences, payments), with the account's
 * access token as Bearer. Answers are parsed at the boundary; anything unexpected is a
 * failure naming what, never a guess.
 */
export function makeMercadoPagoProvider(baseUrl: string): PaymentProvider {
  const base = baseUrl.replace(/\/+$/, "");

  async function call(
    accessToken: string,
    method: "GET" | "POST",
    path: string,
    body?: unknown,
    idempotencyKey?: string,
  ): Promise<ProviderResult<unknown>> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${accessToken}`,
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...(idempotencyKey ? { "x-idempotency-key": idempotencyKey } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      return { ok: false, reason: `no answer from Mercado Pago (${(error as Error).message})` };
    }
    const text = await response.text();
    if (text.length > MAX_ANSWER_BYTES) return { ok: false, reason: "answer too large" };
    if (!response.ok) {
      return {
        ok: false,
        reason: `Mercado Pago answered ${response.status}: ${text.slice(0, 300)}`,
        ...(response.status === 404 ? { notFound: true } : {}),
      };
    }
    try {
      return { ok: true, value: JSON.parse(text) as unknown };
    } catch {
      return { ok: false, reason: "Mercado Pago answered something that is not JSON" };
    }
  }

  return {
    async createPreference(accessToken, request: PreferenceRequest) {
      const answer = await call(
        accessToken,
        "POST",
        "/checkout/preferences",
        {
          items: [
            {
              id: request.reference,
              title: request.title,
              quantity: 1,
              currency_id: request.moneda,
              // the API takes a JSON number: the decimal text, written as one
              unit_price: Number(request.monto),
            },
          ],
          external_reference: request.reference,
          notification_url: request.notificationUrl,
          expires: true,
          expiration_date_to: request.expiresAt.toISOString(),
        },
        request.reference,
      );
      if (!answer.ok) return answer;
      const parsed = preferenceAnswer.safeParse(answer.value);
      if (!parsed.success) return { ok: false, reason: "unexpected preference answer" };
      const preference: Preference = { id: parsed.data.id, url: parsed.data.init_point };
      return { ok: true, value: preference };
    },

    async getPayment(accessToken, paymentId) {
      if (!/^\d{1,30}$/.test(paymentId))
        return { ok: false, reason: "not a payment id", notFound: true };
      const answer = await call(accessToken, "GET", `/v1/payments/${paymentId}`);
      if (!answer.ok) return answer;
      const parsed = paymentAnswer.safeParse(answer.value);
      if (!parsed.success) return { ok: false, reason: "unexpected payment answer" };
      const p = parsed.data;
      let monto: string;
      try {
        monto = new Big(String(p.transaction_amount)).toFixed(2);
      } catch {
        return { ok: false, reason: "unreadable transaction_amount" };
      }
      const payment: Payment = {
        id: String(p.id),
        approved: p.status === "approved",
        reference: p.external_reference ?? null,
        monto,
        moneda: p.currency_id,
        approvedAt: p.date_approved ?? null,
      };
      return { ok: true, value: payment };
    },
  };
}
