import { ticket } from "@pasarela/contracts";
import type { PerfilChanges, PerfilRow } from "../db/repositories/perfiles.js";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);

/**
 * The logo's bytes when they are the PNG or JPEG they say they are and at most 200 KB;
 * undefined otherwise (LOGO_INVALID). The printer embeds them as they are.
 */
export function logoBytes(logo: ticket.Logo): Buffer | undefined {
  const bytes = Buffer.from(logo.data, "base64");
  if (bytes.length === 0 || bytes.length > ticket.LOGO_MAX_BYTES) return undefined;
  const magic = logo.mediaType === "image/png" ? PNG : JPEG;
  return bytes.subarray(0, magic.length).equals(magic) ? bytes : undefined;
}

type PerfilRequest = Omit<ReturnType<typeof ticket.perfilSet.request.parse>, "representadaId">;

/** The columns a `ticket.perfil.set` changes: absent fields untouched, null clears. */
export function perfilChanges(
  request: PerfilRequest,
  logo: Buffer | null | undefined,
): PerfilChanges {
  const changes: PerfilChanges = {};
  const set = <K extends keyof PerfilChanges>(name: K, value: PerfilChanges[K] | undefined) => {
    if (value !== undefined) changes[name] = value;
  };
  set("razon_social", request.razonSocial);
  set("domicilio_comercial", request.domicilioComercial);
  set("condicion_iva", request.condicionIva);
  set("ingresos_brutos", request.ingresosBrutos);
  set("inicio_actividades", request.inicioActividades);
  set("email", request.email);
  if (request.logo !== undefined) {
    set("logo", logo ?? null);
    set("logo_media_type", request.logo?.mediaType ?? null);
  }
  return changes;
}

/** The stored row as the contracts answer it. */
export function perfilOf(row: PerfilRow | undefined): ticket.Perfil {
  return {
    razonSocial: row?.razon_social ?? null,
    domicilioComercial: row?.domicilio_comercial ?? null,
    condicionIva: row?.condicion_iva ?? null,
    ingresosBrutos: row?.ingresos_brutos ?? null,
    inicioActividades: row?.inicio_actividades ?? null,
    logo:
      row?.logo && row.logo_media_type
        ? { mediaType: row.logo_media_type, data: row.logo.toString("base64") }
        : null,
    email: row?.email ?? null,
  };
}
