import { cobros } from "@pasarela/contracts";
import { catalogue, isErrorCode } from "@pasarela/errors";

/** Environments by name. */
export const ENTORNOS = { homologacion: "Homologación", produccion: "Producción" } as const;
export type Entorno = keyof typeof ENTORNOS;

/** "Homologación" or "Producción"; anything else is shown as it came. */
export const entorno = (value: string): string =>
  Object.hasOwn(ENTORNOS, value) ? ENTORNOS[value as Entorno] : value;

/**
 * A catalogue code's Spanish message, exactly as the API answers it
 * ("SERVICE_NOT_DELEGATED" → "Computador no autorizado a acceder al servicio"); undefined for a
 * code the catalogue does not hold.
 */
export const mensajeDeCodigo = (code: string): string | undefined =>
  isErrorCode(code) ? catalogue[code].message : undefined;

/** The web services a representada reaches, by the name the authority gives them. */
const SERVICIOS: Readonly<Record<string, string>> = {
  wsfe: "Factura electrónica (WSFEv1)",
  wsfex: "Factura de exportación (WSFEXv1)",
  ws_sr_constancia_inscripcion: "Constancia de inscripción (padrón)",
  ws_sr_padron_a10: "Padrón A10",
  ws_sr_padron_a13: "Padrón A13",
};

/** A web service by name ("wsfe" → "Factura electrónica (WSFEv1)"), else its id. */
export const servicioWeb = (id: string): string => SERVICIOS[id] ?? id;

/** The events the usage history records, as what happened. */
const EVENTOS: Readonly<Record<string, string>> = {
  [cobros.linkPagado.subject]: "Pago recibido de un link de cobro",
};

/** An event the gateway received, in words; one it does not name is a notice of a service. */
export const eventoRecibido = (subject: string): string =>
  EVENTOS[subject] ?? "Aviso de otro servicio";
