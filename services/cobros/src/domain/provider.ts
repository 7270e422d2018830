/**
 * The payment-provider port: what the gateway needs from whoever collects the money. The
 * Mercado Pago adapter implements it; another provider would too.
 */
export interface PreferenceRequest {
  /** our link id: comes back as the payment's external reference */
  readonly reference: string;
  readonly title: string;
  /** decimal text with two decimals */
  readonly monto: string;
  readonly moneda: "ARS";
  readonly expiresAt: Date;
  readonly notificationUrl: string;
}

export interface Preference {
  readonly id: string;
  /** where the payer goes to pay */
  readonly url: string;
}

/** A payment as the provider reports it when asked (never as a notification claims). */
export interface Payment {
  readonly id: string;
  readonly approved: boolean;
  readonly reference: string | null;
  /** decimal text with two decimals */
  readonly monto: string;
  readonly moneda: string;
  readonly approvedAt: string | null;
}

export type ProviderResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly reason: string; readonly notFound?: boolean };

export interface PaymentProvider {
  createPreference(
    accessToken: string,
    request: PreferenceRequest,
  ): Promise<ProviderResult<Preference>>;
  getPayment(accessToken: string, paymentId: string): Promise<ProviderResult<Payment>>;
}
