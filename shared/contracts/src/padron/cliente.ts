import type { Constancia, Domicilio } from "./persona.js";

/** The most a stored customer's `domicilio` holds (catalog `domicilioSchema`). */
const DOMICILIO_MAX = 300;

/**
 * A person's name as a customer's `razonSocial`: the company name, or surname and given names
 * as the constancia prints them ("PEREZ JUAN CARLOS"); null when the registry sent neither.
 */
export function razonSocialDeConstancia(constancia: Constancia): string | null {
  const general = constancia.datosGenerales;
  if (!general) return null;
  if (general.razonSocial) return general.razonSocial;
  const name = [general.apellido, general.nombre].filter(Boolean).join(" ").trim();
  return name === "" ? null : name;
}

/**
 * An address in one line, as a customer's `domicilio`: street, town (postcode), province, the
 * province left out when it is the town (CABA). Null when there is no street.
 */
export function domicilioEnUnaLinea(domicilio: Domicilio | null): string | null {
  if (!domicilio?.direccion) return null;
  const town = domicilio.localidad
    ? `${domicilio.localidad}${domicilio.codigoPostal ? ` (${domicilio.codigoPostal})` : ""}`
    : domicilio.codigoPostal
      ? `CP ${domicilio.codigoPostal}`
      : undefined;
  const province =
    domicilio.descripcionProvincia && domicilio.descripcionProvincia !== domicilio.localidad
      ? domicilio.descripcionProvincia
      : undefined;
  const line = [domicilio.direccion, town, province].filter(Boolean).join(", ");
  return line.length > DOMICILIO_MAX ? line.slice(0, DOMICILIO_MAX).trimEnd() : line;
}

/**
 * `autocompletar`: what a customer takes from the registry. Each value is null when
 * the constancia does not have it; the caller's explicit fields win over these.
 */
export function clienteDesdeConstancia(constancia: Constancia): {
  razonSocial: string | null;
  domicilio: string | null;
  condicionIvaReceptorId: number | null;
} {
  return {
    razonSocial: razonSocialDeConstancia(constancia),
    domicilio: domicilioEnUnaLinea(constancia.datosGenerales?.domicilioFiscal ?? null),
    condicionIvaReceptorId: constancia.condicionIvaReceptorId,
  };
}
