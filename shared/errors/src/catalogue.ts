/**
 * The one catalogue of errors the gateway can answer. Messages are the product's exact Spanish
 * texts; a message that names a field, a list of accepted values or a web
 * service is produced by a builder (`builders.ts`, `body.ts`), never concatenated in a handler.
 *
 * A code never changes meaning once published: clients branch on it. Longer than 400 lines on
 * purpose: it is one table, every code, kind and message side by side in the order
 * docs/errors.md lists them, and splitting it would scatter the one list reviewers read whole.
 */

/** What went wrong, from the caller's point of view. Only the edge turns a kind into a status. */
export type ErrorKind =
  /** the request itself is malformed or names something unsupported (400) */
  | "invalid"
  /** the body is larger than the edge accepts (413) */
  | "too_large"
  /** the body is in an encoding the edge does not read (415) */
  | "unsupported_media_type"
  /** the request did not arrive complete in time (408) */
  | "request_timeout"
  /** a path segment is longer than any the API has (414) */
  | "uri_too_long"
  /** the request line and headers exceed the server's limit (431) */
  | "headers_too_large"
  /** no valid credential (401) */
  | "unauthenticated"
  /** plan quota exhausted (402) */
  | "quota"
  /** the caller may not do this, or the authority refuses the certificate (403) */
  | "forbidden"
  /** the resource does not resolve for this account (404) */
  | "not_found"
  /** the request collides with existing state (409) */
  | "conflict"
  /** the authority or the totals rules rejected the voucher (422) */
  | "rejected"
  /** too many rejected issuances in the last hour (429) */
  | "rate_limited"
  /** the authority, the PDF generator or storage failed: retry unchanged (502) */
  | "upstream"
  /** one of the gateway's own services did not answer in time: retry (503) */
  | "unavailable"
  /** a bug: never expected (500) */
  | "internal";

export interface CatalogueEntry {
  readonly kind: ErrorKind;
  /** true when the same request may succeed later without any change */
  readonly retryable: boolean;
  /** the fixed message, or the stem a builder completes */
  readonly message: string;
}

const entry = (kind: ErrorKind, retryable: boolean, message: string): CatalogueEntry => ({
  kind,
  retryable,
  message,
});

export const catalogue = {
  // --- request shape (400) ---
  /** the body could not be parsed as JSON, or was not sent as JSON */
  INVALID_JSON: entry("invalid", false, "El cuerpo de la solicitud no es JSON válido"),
  /** a field is missing, has the wrong type or breaks its rule; the message names it */
  INVALID_FIELD: entry("invalid", false, "Campo inválido"),
  /**
   * a JSON number whose decimal value no double holds (1e-400, 1.000000000000000000001):
   * reading it would silently change an amount; the message names the field
   */
  INEXACT_NUMBER: entry("invalid", false, "Número que no se puede leer sin redondearlo"),
  /** a body declared in a charset other than UTF-8 */
  UNSUPPORTED_CHARSET: entry(
    "unsupported_media_type",
    false,
    "El cuerpo de la solicitud debe estar codificado en UTF-8",
  ),
  /** cbteTipo outside the list the called web service accepts; the message lists them */
  UNSUPPORTED_CBTE_TIPO: entry("invalid", false, "cbteTipo no soportado"),
  /** unknown parameter table in /api/wsfe/parametros/:tabla; the message lists the valid ones */
  UNKNOWN_TABLA: entry("invalid", false, "Tabla de parámetros desconocida"),
  /** the body exceeds the edge's size limit */
  BODY_TOO_LARGE: entry("too_large", false, "El cuerpo de la solicitud es demasiado grande"),
  /** no route with that method and path */
  ROUTE_NOT_FOUND: entry("not_found", false, "Ruta no encontrada"),
  /** not valid HTTP: request line or headers unreadable, Content-Length with Transfer-Encoding, no Host */
  MALFORMED_REQUEST: entry("invalid", false, "La solicitud HTTP está mal formada"),
  /** the path's percent-encoding is not UTF-8 */
  INVALID_URL: entry(
    "invalid",
    false,
    "La URL no es válida: codificá cada carácter como %XX sobre sus bytes UTF-8",
  ),
  /** a path segment (an id, a table name) longer than any the API has */
  URI_TOO_LONG: entry("uri_too_long", false, "La URL es demasiado larga"),
  /** request line and headers over the server's limit */
  HEADERS_TOO_LARGE: entry(
    "headers_too_large",
    false,
    "Los encabezados de la solicitud son demasiado grandes",
  ),
  /** headers and body did not arrive complete within the edge's request time limit */
  REQUEST_TIMEOUT: entry(
    "request_timeout",
    true,
    "La solicitud no llegó completa a tiempo: enviá los encabezados y el cuerpo sin pausas",
  ),

  // --- issuance by reference (400) ---
  /** clienteId does not resolve in the caller's account */
  CLIENTE_REFERENCE_NOT_FOUND: entry("invalid", false, "No se encontró el cliente en tu cuenta"),
  /** the referenced customer has no condicionIvaReceptorId and the body sent none */
  CLIENTE_WITHOUT_CONDICION_IVA: entry(
    "invalid",
    false,
    "El cliente no tiene condición frente al IVA cargada",
  ),
  /** productoId does not resolve in the caller's account */
  PRODUCTO_REFERENCE_NOT_FOUND: entry("invalid", false, "No se encontró el producto en tu cuenta"),
  /** the referenced product has no alicuotaIva and the body sent none */
  PRODUCTO_WITHOUT_ALICUOTA: entry(
    "invalid",
    false,
    "El producto no tiene alícuota de IVA cargada",
  ),

  // --- authentication (401/403) ---
  /** key absent, without the Bearer prefix, unknown, wrong or revoked: always this exact body */
  UNAUTHORIZED: entry("unauthenticated", false, "No autorizado"),
  /** read_only key on a write route; the message ending depends on the route group */
  READ_ONLY_KEY: entry("forbidden", false, "Esta API key es de solo lectura"),

  // --- dashboard sessions (/panel, 403/404) ---
  /** a dashboard form without its token, with another session's, or after the session ended */
  CSRF_INVALID: entry(
    "forbidden",
    false,
    "El formulario venció o no es válido: volvé a cargar la página e intentá de nuevo",
  ),
  /** a dashboard page of something that is not in the session's account: the same answer */
  PANEL_NOT_FOUND: entry("not_found", false, "La página no existe o no es de tu cuenta"),
  /** a dashboard form whose new password and its repetition differ */
  PASSWORDS_DIFFER: entry("invalid", false, "Las contraseñas no coinciden"),
  /** the certificate form sent with neither a file nor a pasted PEM */
  CERTIFICATE_MISSING: entry("invalid", false, "Elegí el archivo del certificado o pegá su PEM."),

  // --- quota (402) ---
  /** invoice quota of the period exhausted */
  QUOTA_FACTURAS_EXHAUSTED: entry("quota", false, "Cuota de facturas del período agotada"),
  /** registry-lookup quota of the period exhausted */
  QUOTA_PADRONES_EXHAUSTED: entry("quota", false, "Cuota de padrones del período agotada"),

  // --- representadas and certificates (403) ---
  /** the representada is not registered for this account in this environment */
  REPRESENTADA_NOT_FOUND: entry(
    "forbidden",
    false,
    "La representada no existe, no pertenece a tu cuenta o no está registrada en ese entorno",
  ),
  /** the representada has no active certificate in this environment */
  NO_ACTIVE_CERTIFICATE: entry(
    "forbidden",
    false,
    "La representada no tiene certificado activo en ese entorno",
  ),
  /** WSAA coe.notAuthorized / LoginFault: the certificate alias is not associated with the service */
  SERVICE_NOT_DELEGATED: entry(
    "forbidden",
    false,
    "Computador no autorizado a acceder al servicio",
  ),
  /** WSAA cms.cert.untrusted or token hash 600: a certificate of the other environment */
  CERTIFICATE_ENVIRONMENT_MISMATCH: entry(
    "forbidden",
    false,
    "Certificado no emitido por AC de confianza",
  ),
  /** authority 600 "lista de relaciones": the represented taxpayer did not delegate the service */
  REPRESENTADA_NOT_DELEGATED: entry(
    "forbidden",
    false,
    "La representada no delegó el servicio en el certificado",
  ),

  // --- operator actions on representadas and certificates (400/404/409) ---
  /** a CUIT with the wrong length or check digit */
  INVALID_CUIT: entry("invalid", false, "CUIT inválida"),
  /** the uploaded text is not a PEM certificate */
  CERTIFICATE_NOT_PEM: entry("invalid", false, "El archivo no es un certificado PEM"),
  /** a certificate request (CSR) was uploaded in place of the certificate */
  CERTIFICATE_IS_CSR: entry(
    "invalid",
    false,
    "Subiste un pedido de certificado (CSR), no un certificado: enviá el CSR a la AFIP y subí el certificado que te devuelve (-----BEGIN CERTIFICATE-----)",
  ),
  /** the certificate's public key does not match the pending or uploaded private key */
  CERTIFICATE_KEY_MISMATCH: entry(
    "invalid",
    false,
    "La clave pública del certificado no corresponde a la clave privada de la representada",
  ),
  /** the certificate is past its notAfter */
  CERTIFICATE_EXPIRED: entry("invalid", false, "El certificado está vencido"),
  /** the certificate's notBefore is in the future */
  CERTIFICATE_NOT_YET_VALID: entry("invalid", false, "El certificado todavía no es válido"),
  /** the certificate was issued by the other environment's CA */
  CERTIFICATE_WRONG_ENVIRONMENT: entry(
    "invalid",
    false,
    "El certificado fue emitido por la AC del otro entorno",
  ),
  /** the uploaded private key cannot be read */
  PRIVATE_KEY_INVALID: entry("invalid", false, "La clave privada no es una clave RSA PEM válida"),
  /** no pending key: a certificate issued outside the gateway must come with its key */
  CERTIFICATE_NEEDS_KEY: entry(
    "invalid",
    false,
    "No hay un pedido de certificado pendiente: subí el certificado junto con su clave privada",
  ),
  /** the same CUIT is already registered for this account and environment */
  REPRESENTADA_DUPLICATE: entry(
    "conflict",
    false,
    "La representada ya está registrada en ese entorno",
  ),
  /** a representada id of the account's API that does not resolve: unknown, malformed and another account's alike */
  REPRESENTADA_ID_NOT_FOUND: entry("not_found", false, "Representada no encontrada"),
  /** the issuer profile's logo does not decode as a PNG or JPEG within 200 KB and 1000 × 1000 px; built by `logoInvalid` */
  LOGO_INVALID: entry(
    "invalid",
    false,
    "El logo debe ser una imagen PNG o JPEG de hasta 200 KB y de hasta 1000 × 1000 píxeles",
  ),
  /** operator reference to an account that does not exist */
  ACCOUNT_NOT_FOUND: entry("not_found", false, "La cuenta no existe"),
  /** operator reference to a plan that does not exist */
  PLAN_NOT_FOUND: entry("not_found", false, "El plan no existe"),
  /** a plan with that name already exists */
  PLAN_DUPLICATE: entry("conflict", false, "Ya existe un plan con ese nombre"),
  /** operator reference to an API key that does not exist */
  KEY_NOT_FOUND: entry("not_found", false, "La API key no existe"),

  // --- dashboard users and support ---
  /** sign-up or operator add with an e-mail another user already has */
  USER_EMAIL_TAKEN: entry("conflict", false, "Ya existe un usuario con ese e-mail"),
  /** unknown e-mail or wrong password: the same answer for both, never which one */
  INVALID_CREDENTIALS: entry("unauthenticated", false, "Credenciales inválidas"),
  /** too many failed logins for the address or from the IP; the message says when to retry */
  LOGIN_THROTTLED: entry("rate_limited", true, "Demasiados intentos fallidos de inicio de sesión"),
  /** a user id that does not exist */
  USER_NOT_FOUND: entry("not_found", false, "El usuario no existe"),
  /** a password-reset token that is unknown, already used or expired: the same answer */
  RESET_TOKEN_INVALID: entry(
    "invalid",
    false,
    "El enlace para restablecer la contraseña no es válido, ya se usó o venció: pedí uno nuevo",
  ),
  /** a support ticket id that does not exist or belongs to another account: the same answer */
  SOPORTE_NOT_FOUND: entry("not_found", false, "Ticket de soporte no encontrado"),
  /** a reply to a closed support ticket */
  SOPORTE_CERRADO: entry(
    "conflict",
    false,
    "El ticket de soporte está cerrado: abrí uno nuevo si necesitás más ayuda",
  ),

  // --- catalog (404/409) ---
  /** customer id does not exist, belongs to another account or was deleted: same answer */
  CLIENTE_NOT_FOUND: entry("not_found", false, "Cliente no encontrado"),
  /** product id does not exist, belongs to another account or was deleted: same answer */
  PRODUCTO_NOT_FOUND: entry("not_found", false, "Producto no encontrado"),
  /** docTipo + docNro already used by a live customer of the account */
  CLIENTE_DUPLICATE: entry("conflict", false, "Ya tenés un cliente con ese documento"),

  // --- registry lookups (/api/padron/*, 404) ---
  /** the registry holds no person with the id asked for (A13, A10, constancia) */
  PERSONA_NOT_FOUND: entry("not_found", false, "No existe persona con ese Id"),
  /** the key asked for is inactive: A13 and A10 do not show inactive keys (the constancia does) */
  PERSONA_INACTIVA: entry(
    "not_found",
    false,
    "La clave (CUIT/CUIL) consultada está inactiva en el padrón de la AFIP",
  ),

  // --- printed vouchers (/api/wsfe/comprobantes/pdf, 404/422) ---
  /** no voucher this account issued through the gateway matches all five fields */
  COMPROBANTE_NOT_FOUND: entry("not_found", false, "Comprobante no encontrado"),
  /** the voucher was rejected by the authority: it has no printed representation */
  COMPROBANTE_RECHAZADO: entry(
    "rejected",
    false,
    "no existe representación impresa de un comprobante rechazado",
  ),
  /** a shareable link that does not exist, was altered or has expired: the same answer */
  PDF_LINK_NOT_FOUND: entry("not_found", false, "El link del comprobante no existe o venció"),

  // --- e-mail and payment links (/api/wsfe/comprobantes/email, /api/links-de-cobro) ---
  /** no `to` in the request, no e-mail on the receiver customer and none given at issuance */
  EMAIL_RECIPIENT_MISSING: entry(
    "invalid",
    false,
    "El campo to es obligatorio: el comprobante no tiene destinatario (el cliente receptor no tiene e-mail y la emisión no trajo email)",
  ),
  /** e-mail and payment links exist only for authorized vouchers */
  COMPROBANTE_NO_AUTORIZADO: entry(
    "rejected",
    false,
    "El comprobante fue rechazado por la AFIP: no se envía por e-mail ni se cobra",
  ),
  /** no payment link of this account has that id (unknown, malformed and another account's alike) */
  LINK_COBRO_NOT_FOUND: entry("not_found", false, "Link de cobro no encontrado"),
  /** the account has no payment-provider credentials set by the operator */
  PAYMENT_PROVIDER_NOT_CONFIGURED: entry(
    "conflict",
    false,
    "La cuenta no tiene configurada una cuenta de Mercado Pago para cobrar",
  ),

  // --- webhook endpoints (/api/webhooks, 404/409) ---
  /** no webhook endpoint of this account has that id (unknown, malformed and another account's alike) */
  WEBHOOK_NOT_FOUND: entry("not_found", false, "Webhook no encontrado"),
  /** the account already has as many webhook endpoints as it may register */
  WEBHOOK_LIMIT_REACHED: entry(
    "conflict",
    false,
    "Llegaste al máximo de 20 webhooks por cuenta: eliminá uno para registrar otro",
  ),
  /** a test event goes to active endpoints only: a paused one would hold it until reactivated */
  WEBHOOK_INACTIVE: entry(
    "conflict",
    false,
    "El webhook está pausado (activo: false): activalo para enviarle un evento de prueba",
  ),

  // --- authority answers that are the caller's to fix (400) ---
  /** the authority says the point of sale is not enabled for the web service (WSFEv1 11002, WSFEX 1607) */
  POINT_OF_SALE_NOT_ENABLED: entry(
    "invalid",
    false,
    "El punto de venta no está habilitado para facturar por web services",
  ),
  /** the authority refused a query for a reason in the request (its code and text in details) */
  AUTHORITY_QUERY_REFUSED: entry("invalid", false, "La AFIP rechazó la consulta"),

  // --- issuance (409/422/429) ---
  /** the authority answered Resultado R; details in observaciones/errores */
  AUTHORITY_REJECTED: entry("rejected", false, "La AFIP rechazó el comprobante"),
  /** totals, rates or required blocks do not add up */
  TOTALS_INVALID: entry("rejected", false, "Los importes o alícuotas no cierran"),
  /** too many rejected issuances in the rolling hour */
  REJECTION_CAP: entry(
    "rate_limited",
    true,
    "Demasiados comprobantes rechazados en la última hora",
  ),
  /** the first request with this Idempotency-Key is still being worked on: never a second voucher */
  IDEMPOTENCY_IN_PROGRESS: entry(
    "conflict",
    true,
    "La emisión con esta Idempotency-Key todavía está en curso; reintentá en unos segundos",
  ),
  /** the Idempotency-Key was first used with another body (IETF idempotency-key draft: 422) */
  IDEMPOTENCY_KEY_REUSED: entry(
    "rejected",
    false,
    "La Idempotency-Key ya se usó con otro cuerpo: usá una clave nueva para otro comprobante",
  ),

  // --- failures (502/503/500) ---
  /** the authority failed: 501, timeouts, WSAA unavailable, unclassifiable answers */
  AUTHORITY_UNAVAILABLE: entry(
    "upstream",
    true,
    "La AFIP no respondió correctamente; reintentá más tarde sin cambios",
  ),
  /** WSAA holds a valid ticket the gateway does not have (coe.alreadyAuthenticated) */
  ACCESS_TICKET_PENDING: entry(
    "upstream",
    true,
    "La AFIP ya emitió un ticket de acceso vigente para este certificado y servicio que la pasarela no tiene",
  ),
  /** the PDF generator failed on the voucher: a 502, retried unchanged like an authority failure */
  PDF_RENDER_FAILED: entry(
    "upstream",
    true,
    "No se pudo generar el PDF del comprobante; reintentá más tarde sin cambios",
  ),
  /** the PDF store could not be written or read: a 502, retried unchanged like the render */
  PDF_STORAGE_FAILED: entry(
    "upstream",
    true,
    "No se pudo guardar o leer el PDF del comprobante; reintentá más tarde sin cambios",
  ),
  /** the payment provider refused or failed a call the gateway made on the account's behalf */
  PAYMENT_PROVIDER_FAILED: entry(
    "upstream",
    true,
    "Mercado Pago no respondió correctamente; reintentá más tarde sin cambios",
  ),
  /** one of the gateway's services did not answer: the gateway's own outage */
  SERVICE_UNAVAILABLE: entry(
    "unavailable",
    true,
    "Servicio momentáneamente no disponible; reintentá en unos segundos",
  ),
  /** an unexpected failure inside the gateway */
  INTERNAL: entry("internal", true, "Error interno"),

  // --- asynchronous issuance ---
  /** no asynchronous issuance with that id in the caller's account (or of that kind) */
  ASYNC_ISSUANCE_NOT_FOUND: entry("not_found", false, "No se encontró la emisión en tu cuenta"),
  /** the authority did not answer for ASYNC_ISSUANCE_MAX_AGE: the voucher was never issued */
  ASYNC_ISSUANCE_EXPIRED: entry(
    "upstream",
    false,
    "La AFIP no permitió emitir el comprobante dentro del plazo de la emisión asincrónica: no se emitió",
  ),
  /** `contingencia: "caea"` for a representada whose contingency is off */
  CONTINGENCY_NOT_ENABLED: entry(
    "conflict",
    false,
    "La representada no tiene encendida la contingencia con CAEA en este entorno",
  ),
  /** in contingency, no CAEA covers the voucher's date (the authority did not grant it yet) */
  CAEA_NOT_AVAILABLE: entry(
    "upstream",
    true,
    "No hay CAEA para la quincena del comprobante: la AFIP todavía no lo otorgó",
  ),
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof catalogue;
