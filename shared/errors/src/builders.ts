import type { AppError } from "./app-error.js";
import { catalogue } from "./catalogue.js";

/**
 * Builders for the catalogue messages that name something: a field, a list of accepted values,
 * a web service, an environment. Handlers call these instead of concatenating strings.
 */

/** The two worlds of the authority. The one list; contracts build their schema on it. */
export const ENVIRONMENTS = ["homologacion", "produccion"] as const;
export type Environment = (typeof ENVIRONMENTS)[number];
/** An environment as a sentence names it: "en homologación". */
const ENVIRONMENT_WORDS: Record<Environment, string> = {
  homologacion: "homologación",
  produccion: "producción",
};

/** WSAA service ids a certificate can be delegated for. The one list. */
export const WEB_SERVICES = [
  "wsfe",
  "wsfex",
  "ws_sr_padron_a13",
  "ws_sr_padron_a10",
  "ws_sr_constancia_inscripcion",
] as const;
export type WebService = (typeof WEB_SERVICES)[number];

/** The ending of the read-only message by endpoint group. */
export type WriteGroup = "emision" | "datos" | "links";

const readOnlyEndings: Record<WriteGroup, string> = {
  emision: "y no puede emitir comprobantes.",
  datos: "y no puede modificar datos de la cuenta.",
  links: "y no puede generar links de cobro.",
};

/** Accepted VAT rates, in the order messages list them. */
export const ALICUOTAS_IVA = ["0", "2.5", "5", "10.5", "21", "27"] as const;

const list = (values: readonly (string | number)[]): string => values.join(", ");

/** Completes "El campo <field> …" for a VAT rate outside the accepted list. */
export function alicuotaNotAccepted(value: unknown): string {
  return `tiene una alícuota de IVA no aceptada (${String(value)}). Alícuotas aceptadas: ${list(ALICUOTAS_IVA)}`;
}

/**
 * Completes "El campo <field> …" for text no part of the gateway may store or forward: NUL
 * and the other control characters but tab and line breaks, lone surrogates, U+FFFE, U+FFFF
 * (none of them is XML text, and PostgreSQL refuses NUL).
 */
export function forbiddenCharacter(codePoint: number): string {
  const code = codePoint.toString(16).toUpperCase().padStart(4, "0");
  return `contiene un carácter no permitido (U+${code}): no se aceptan caracteres de control (salvo tabulación y saltos de línea), sustitutos sueltos ni U+FFFE/U+FFFF`;
}

export function readOnlyKey(group: WriteGroup): AppError {
  return {
    code: "READ_ONLY_KEY",
    message: `${catalogue.READ_ONLY_KEY.message} ${readOnlyEndings[group]}`,
  };
}

export function serviceNotDelegated(
  service: WebService,
  environment: Environment,
  authorityMessage?: string,
): AppError {
  const cause = authorityMessage ?? catalogue.SERVICE_NOT_DELEGATED.message;
  return {
    code: "SERVICE_NOT_DELEGATED",
    message: `El certificado no está autorizado para el servicio ${service} en ${ENVIRONMENT_WORDS[environment]}: asocialo al servicio ${service} en la AFIP (${cause})`,
    details: { service, environment },
  };
}

/**
 * Test/production mix-up: the message is the product's exact text, whatever the authority
 * worded; the environment asked for and the authority's own code and text go in `details`.
 */
export function certificateEnvironmentMismatch(
  environment: Environment,
  authority?: { code: string | number; message: string },
): AppError {
  return {
    code: "CERTIFICATE_ENVIRONMENT_MISMATCH",
    message: catalogue.CERTIFICATE_ENVIRONMENT_MISMATCH.message,
    details: {
      environment,
      ...(authority ? { authorityCode: authority.code, authorityMessage: authority.message } : {}),
    },
  };
}

export function representadaNotDelegated(
  cuit: string,
  service: WebService,
  environment: Environment,
  authorityMessage: string,
): AppError {
  return {
    code: "REPRESENTADA_NOT_DELEGATED",
    message: `La CUIT ${cuit} no delegó el servicio ${service} en ${ENVIRONMENT_WORDS[environment]} al certificado: ${authorityMessage}`,
    details: { cuit, service, environment, authorityMessage },
  };
}

export function authorityUnavailable(detail: string, details?: Record<string, unknown>): AppError {
  return {
    code: "AUTHORITY_UNAVAILABLE",
    message: `${catalogue.AUTHORITY_UNAVAILABLE.message} (${detail})`,
    details: { ...details, detail },
  };
}

export function accessTicketPending(
  service: WebService,
  environment: Environment,
  availableAt: string,
): AppError {
  return {
    code: "ACCESS_TICKET_PENDING",
    message: `${catalogue.ACCESS_TICKET_PENDING.message} (${service}, ${ENVIRONMENT_WORDS[environment]}); podrá obtenerse uno nuevo a partir de ${availableAt}`,
    details: { service, environment, availableAt },
  };
}

export function clienteReferenceNotFound(id: string): AppError {
  return {
    code: "CLIENTE_REFERENCE_NOT_FOUND",
    message: `No se encontró el cliente ${id} en tu cuenta`,
    details: { clienteId: id },
  };
}

export function clienteWithoutCondicionIva(id: string): AppError {
  return {
    code: "CLIENTE_WITHOUT_CONDICION_IVA",
    message: `El cliente ${id} no tiene condición frente al IVA cargada`,
    details: { clienteId: id },
  };
}

export function productoReferenceNotFound(id: string): AppError {
  return {
    code: "PRODUCTO_REFERENCE_NOT_FOUND",
    message: `No se encontró el producto ${id} en tu cuenta`,
    details: { productoId: id },
  };
}

export function productoWithoutAlicuota(id: string): AppError {
  return {
    code: "PRODUCTO_WITHOUT_ALICUOTA",
    message: `El producto ${id} no tiene alícuota de IVA cargada`,
    details: { productoId: id },
  };
}

/**
 * 429: says when the next issuance will be accepted, in seconds and as a time;
 * the edge also sends the seconds as `Retry-After`.
 */
export function rejectionCap(retryAfterSeconds: number, acceptedFrom: Date, cap: number): AppError {
  return {
    code: "REJECTION_CAP",
    message: `${catalogue.REJECTION_CAP.message} (límite: ${cap}); el bloqueo se levanta solo a medida que pasa la hora: la próxima emisión se aceptará en ${retryAfterSeconds} s (${acceptedFrom.toISOString()})`,
    details: { retryAfterSeconds, acceptedFrom: acceptedFrom.toISOString(), cap },
  };
}

/** 11002: the authority's own text tells the caller where to enable the point of sale. */
export function pointOfSaleNotEnabled(
  ptoVta: number,
  service: WebService,
  environment: Environment,
  authority: { code: number; message: string },
): AppError {
  return {
    code: "POINT_OF_SALE_NOT_ENABLED",
    message: `El punto de venta ${ptoVta} no está habilitado para ${service} en ${ENVIRONMENT_WORDS[environment]}: la AFIP respondió ${authority.code} "${authority.message}". Declaralo con modalidad web services (también en homologación) y consultá /api/wsfe/parametros/puntos-de-venta`,
    details: {
      field: "ptoVta",
      ptoVta,
      service,
      environment,
      authorityCode: authority.code,
      authorityMessage: authority.message,
    },
  };
}

/** A query the authority refused for a reason in the request; its code and text reach the caller. */
export function authorityQueryRefused(
  service: WebService,
  authority: { code: number; message: string },
): AppError {
  return {
    code: "AUTHORITY_QUERY_REFUSED",
    message: `${catalogue.AUTHORITY_QUERY_REFUSED.message} (${service}, código ${authority.code}): ${authority.message}`,
    details: { service, authorityCode: authority.code, authorityMessage: authority.message },
  };
}

/**
 * 422: a voucher rule the gateway checks before the authority. `problem` completes
 * "El campo <field> …" and states the rule, so the caller knows what to change.
 */
export function totalsInvalid(
  field: string,
  problem: string,
  details?: Record<string, unknown>,
): AppError {
  return {
    code: "TOTALS_INVALID",
    message: `El campo ${field} ${problem}`,
    details: { ...details, field, problem },
  };
}

/** An item's VAT rate outside the accepted list, which it lists (422). */
export function issuanceAlicuotaNotAccepted(field: string, value: string): AppError {
  return totalsInvalid(
    field,
    `${alicuotaNotAccepted(value)}; para ítems sin IVA, "no_gravado" o "exento"`,
    { value, accepted: ALICUOTAS_IVA },
  );
}

/** Class C vouchers carry no itemized VAT (422). */
export function classCWithIva(field: string, cbteTipo: number, value: string): AppError {
  return totalsInvalid(
    field,
    `debe ser 0: los comprobantes clase C (tipo ${cbteTipo}) no discriminan IVA (alícuota recibida: ${value}). Enviá alicuotaIva 0`,
    { value, cbteTipo },
  );
}

/** An authority code and its text inside an issuance answer. */
export interface AuthorityCodeMessage {
  readonly code: number;
  readonly msg: string;
}

// The two rejections whose cure is not in the voucher itself.
const rejectionHints: Readonly<Record<number, string>> = {
  10016:
    "el número o la fecha no son los siguientes a autorizar en ese punto de venta y tipo: consultá /api/wsfe/ultimo-comprobante; después de un reintento, esto probablemente significa que el intento anterior se emitió (consultalo en /api/wsfe/comprobante)",
  11002:
    "el punto de venta no está habilitado para facturar por web services: declaralo en la AFIP con la modalidad web services (también en homologación) y consultá /api/wsfe/parametros/puntos-de-venta",
};

/**
 * 422: the authority answered `Resultado` R. Its codes travel in `details`
 * as `resultado`, `observaciones` and `errores` (the edge lifts them to the top of the body);
 * the message quotes them and adds a hint for 10016 and 11002.
 */
export function authorityRejected(answer: {
  readonly observaciones: readonly AuthorityCodeMessage[];
  readonly errores: readonly AuthorityCodeMessage[];
}): AppError {
  const all = [...answer.errores, ...answer.observaciones];
  const quoted = all.map(({ code, msg }) => `${code} ${msg}`).join("; ");
  const hints = [...new Set(all.map(({ code }) => rejectionHints[code]))].filter(
    (hint): hint is string => hint !== undefined,
  );
  const message = [
    quoted
      ? `${catalogue.AUTHORITY_REJECTED.message}: ${quoted}`
      : catalogue.AUTHORITY_REJECTED.message,
    ...hints,
  ].join(". ");
  return {
    code: "AUTHORITY_REJECTED",
    message,
    details: {
      resultado: "R",
      observaciones: answer.observaciones.map(({ code, msg }) => ({ code, msg })),
      errores: answer.errores.map(({ code, msg }) => ({ code, msg })),
    },
  };
}

/**
 * The registry has no person with this id. The message is the registry's own text,
 * the same for every service; who was asked goes in `details`.
 */
export function personaNotFound(idPersona: string, service: WebService): AppError {
  return {
    code: "PERSONA_NOT_FOUND",
    message: catalogue.PERSONA_NOT_FOUND.message,
    details: { idPersona, service },
  };
}

/**
 * A13 and A10 refuse an inactive key; the constancia (/api/padron/constancia) still
 * shows it, with `estadoClave` INACTIVO, and A13's record of the active key lists it.
 */
export function personaInactiva(
  idPersona: string,
  service: WebService,
  authorityMessage: string,
): AppError {
  return {
    code: "PERSONA_INACTIVA",
    message: `${catalogue.PERSONA_INACTIVA.message} (${idPersona}): consultá /api/padron/constancia, que la muestra con estadoClave INACTIVO`,
    details: { idPersona, service, authorityMessage },
  };
}

/**
 * "Probar conexión": the step at the authority that cures a refused login or a
 * missing relation, in the words of its web apps. `alias` is the certificate's CN (the
 * "computador fiscal"), `cuit` the representada.
 */
export function delegationFix(
  code: string,
  target: { service: WebService; environment: Environment; alias: string; cuit: string },
): string {
  const { service, environment, alias, cuit } = target;
  switch (code) {
    case "SERVICE_NOT_DELEGATED":
      return environment === "homologacion"
        ? `En WSASS (Autogestión Certificados Homologación) → Crear autorización a servicio: elegí el computador ${alias}, la CUIT representada ${cuit} y el servicio ${service}. En producción es Administrador de Relaciones de Clave Fiscal → Nueva relación → ARCA → WebServices → ${service} → Representante: el computador fiscal ${alias} → Confirmar.`
        : `Con la clave fiscal de la CUIT ${cuit}: Administrador de Relaciones de Clave Fiscal → Nueva relación → ARCA → WebServices → ${service} → Representante: el computador fiscal ${alias} → Confirmar.`;
    case "REPRESENTADA_NOT_DELEGATED":
      return `La CUIT ${cuit} debe delegar el servicio: con su clave fiscal, Administrador de Relaciones de Clave Fiscal → Nueva relación → ARCA → WebServices → ${service} → Representante: el computador fiscal ${alias} → Confirmar. La delegación vale para el próximo ticket de acceso.`;
    case "CERTIFICATE_ENVIRONMENT_MISMATCH":
      return `El certificado no es de ${ENVIRONMENT_WORDS[environment]}: subí uno emitido por la AC de ${ENVIRONMENT_WORDS[environment]} (${environment === "homologacion" ? "WSASS" : "Administración de Certificados Digitales"}) para el alias ${alias}.`;
    case "NO_ACTIVE_CERTIFICATE":
      return "Subí el certificado que la AFIP emitió para el pedido (CSR) de esta representada.";
    case "ACCESS_TICKET_PENDING":
      return "La AFIP ya entregó un ticket de acceso para este certificado y servicio a otro sistema: esperá a que venza (hasta 12 horas) o usá otro certificado.";
    default:
      return "Falla de la AFIP, no de la configuración: reintentá la prueba en unos minutos.";
  }
}

/**
 * Too many failed logins (429): says when the next attempt will be accepted, in seconds and
 * as a time; the edge also sends the seconds as `Retry-After`.
 */
export function loginThrottled(retryAfterSeconds: number, retryAt: Date): AppError {
  return {
    code: "LOGIN_THROTTLED",
    message: `${catalogue.LOGIN_THROTTLED.message}: probá de nuevo en ${retryAfterSeconds} s (${retryAt.toISOString()})`,
    details: { retryAfterSeconds, retryAt: retryAt.toISOString() },
  };
}
