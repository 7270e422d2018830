/** Profiles between their stored rows and the contracts: what a change sets, what a read answers. */
import type { ticket } from "@pasarela/contracts";
import type { EmisorRow, PerfilChanges, PerfilRow } from "./perfiles.js";

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

/** The profile as a voucher issued now copies it: the logo by name, without its bytes. */
export function emisorOf(row: EmisorRow | undefined): ticket.Emisor {
  return {
    razonSocial: row?.razon_social ?? null,
    domicilioComercial: row?.domicilio_comercial ?? null,
    condicionIva: row?.condicion_iva ?? null,
    ingresosBrutos: row?.ingresos_brutos ?? null,
    inicioActividades: row?.inicio_actividades ?? null,
    logo:
      row?.logo_sha256 && row.logo_media_type
        ? { mediaType: row.logo_media_type, sha256: row.logo_sha256 }
        : null,
  };
}
