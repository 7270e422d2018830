import type { wsfex } from "@pasarela/contracts";
import { appError, authorityUnavailable, ok, type AppError } from "@pasarela/errors";
import { xmlChild, xmlElement, xmlList, xmlString } from "../asmx-client.js";
import type { AsmxErr } from "../asmx-errors.js";
import { cannotLandAnyMore } from "../landing.js";
import type { TicketedAttempt } from "../ticketed-call.js";
import { describeTransportFailure } from "../transport-failure.js";
import type { XmlObject } from "../xml-reader.js";

/** An observation, error or event of the authority: its code and text. */
export interface FexMessage {
  readonly code: number;
  readonly msg: string;
}

/**
 * What one FEXAuthorize came to:
 * - judged: the authority judged the voucher: `A` with a CAE, or `R` (its single `FEXErr`
 *   in `errores`, the reasons of a result block in `observaciones`). `reproceso`: the `Id`
 *   had been authorized before and this is that answer again;
 * - refused: not judged (the TA refused, the CUIT outside its relations, never sent): nothing
 *   was issued;
 * - unknown: sent without a usable answer (timeout, dropped connection, HTTP 5xx, SOAP fault,
 *   unreadable, the authority's own 500–505): it may have been authorized. `over`: this
 *   request can no longer reach the authority.
 */
export type FexAuthorizeOutcome =
  | {
      readonly kind: "judged";
      readonly resultado: "A" | "R";
      readonly cbteNro: number;
      readonly cae: string;
      readonly caeVencimiento: string;
      readonly fechaCbte: string;
      readonly reproceso: boolean;
      readonly observaciones: readonly FexMessage[];
      readonly errores: readonly FexMessage[];
      readonly eventos: readonly FexMessage[];
    }
  | { readonly kind: "refused"; readonly error: AppError }
  | { readonly kind: "unknown"; readonly error: AppError; readonly over?: boolean };

/** The authority's own failures: they prove nothing about the voucher. */
const INTERNAL = new Set([500, 501, 502, 505]);

const text = (value: string | undefined) => value ?? "";
const opt = (name: string, value: string | number | undefined) =>
  value === undefined ? "" : xmlElement(name, value);

/** `ClsFEXRequest` in WSDL order: the order ASMX reads it in. */
export function fexCmpXml(c: wsfex.FexCmp): string {
  const list = <T>(outer: string, items: readonly T[], one: (item: T) => string) =>
    items.length === 0 ? "" : `<${outer}>${items.map(one).join("")}</${outer}>`;
  return (
    `<Cmp>${xmlElement("Id", c.Id)}${xmlElement("Fecha_cbte", c.Fecha_cbte)}` +
    `${xmlElement("Cbte_Tipo", c.Cbte_Tipo)}${xmlElement("Punto_vta", c.Punto_vta)}` +
    `${xmlElement("Cbte_nro", c.Cbte_nro)}${xmlElement("Tipo_expo", c.Tipo_expo)}` +
    `${xmlElement("Permiso_existente", c.Permiso_existente)}` +
    list(
      "Permisos",
      c.Permisos,
      (p) =>
        `<Permiso>${xmlElement("Id_permiso", p.Id_permiso)}${xmlElement("Dst_merc", p.Dst_merc)}</Permiso>`,
    ) +
    `${xmlElement("Dst_cmp", c.Dst_cmp)}${xmlElement("Cliente", c.Cliente)}` +
    `${opt("Cuit_pais_cliente", c.Cuit_pais_cliente)}${xmlElement("Domicilio_cliente", c.Domicilio_cliente)}` +
    `${opt("Id_impositivo", c.Id_impositivo)}${xmlElement("Moneda_Id", c.Moneda_Id)}` +
    `${xmlElement("Moneda_ctz", c.Moneda_ctz)}${opt("CanMisMonExt", c.CanMisMonExt)}` +
    `${opt("Obs_comerciales", c.Obs_comerciales)}${xmlElement("Imp_total", c.Imp_total)}` +
    opt("Obs", c.Obs) +
    list(
      "Cmps_asoc",
      c.Cmps_asoc,
      (a) =>
        `<Cmp_asoc>${xmlElement("Cbte_tipo", a.Cbte_tipo)}${xmlElement("Cbte_punto_vta", a.Cbte_punto_vta)}` +
        `${xmlElement("Cbte_nro", a.Cbte_nro)}${opt("Cbte_cuit", a.Cbte_cuit)}</Cmp_asoc>`,
    ) +
    `${opt("Forma_pago", c.Forma_pago)}${opt("Incoterms", c.Incoterms)}` +
    `${opt("Incoterms_Ds", c.Incoterms_Ds)}${xmlElement("Idioma_cbte", c.Idioma_cbte)}` +
    list(
      "Items",
      c.Items,
      (i) =>
        `<Item>${opt("Pro_codigo", i.Pro_codigo)}${xmlElement("Pro_ds", i.Pro_ds)}` +
        `${xmlElement("Pro_qty", i.Pro_qty)}${xmlElement("Pro_umed", i.Pro_umed)}` +
        `${xmlElement("Pro_precio_uni", i.Pro_precio_uni)}${xmlElement("Pro_bonificacion", i.Pro_bonificacion)}` +
        `${xmlElement("Pro_total_item", i.Pro_total_item)}</Item>`,
    ) +
    list(
      "Opcionales",
      c.Opcionales,
      (o) => `<Opcional>${xmlElement("Id", o.Id)}${xmlElement("Valor", o.Valor)}</Opcional>`,
    ) +
    opt("Fecha_pago", c.Fecha_pago) +
    list("Actividades", c.Actividades, (a) => `<Actividad>${xmlElement("Id", a.Id)}</Actividad>`) +
    `</Cmp>`
  );
}

/**
 * `Motivos_Obs` is free text: observation codes (14–17, 21) with or without their wording,
 * separated by commas or semicolons. Each part becomes one observation, its leading number the
 * code when it has one.
 */
export function motivosObs(value: string | undefined): FexMessage[] {
  return text(value)
    .split(/[;,]/)
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map((part) => {
      const code = /^(\d+)/.exec(part);
      return { code: code ? Number(code[1]) : 0, msg: part };
    });
}

function eventsOf(result: XmlObject): FexMessage[] {
  const events = xmlList(result, "FEXEvents");
  return events.flatMap((e) => {
    const code = Number(xmlString(e, "EventCode"));
    return Number.isFinite(code) && code !== 0
      ? [{ code, msg: text(xmlString(e, "EventMsg")) }]
      : [];
  });
}

/**
 * Reads one FEXAuthorize answer. `err` is its `FEXErr` when not 0. A token or relation
 * problem is left to the caller (`classify`), since only it knows the ticket; every other
 * error code is the authority's judgement of this voucher, the internal ones (500–505) none.
 */
export function readAuthorizeAnswer(
  result: XmlObject,
  err: AsmxErr | undefined,
  sent: wsfex.FexCmp,
): FexAuthorizeOutcome | undefined {
  const eventos = eventsOf(result);
  const auth = xmlChild(result, "FEXResultAuth");
  const resultado = xmlString(auth, "Resultado")?.trim();
  if (err && INTERNAL.has(err.code)) {
    return {
      kind: "unknown",
      error: authorityUnavailable(`WSFEX ${err.code}: ${err.message}`, { authorityCode: err.code }),
      over: true,
    };
  }
  if (auth && (resultado === "A" || resultado === "R")) {
    const cbteNro = Number(xmlString(auth, "Cbte_nro"));
    return {
      kind: "judged",
      resultado,
      cbteNro: Number.isSafeInteger(cbteNro) ? cbteNro : sent.Cbte_nro,
      cae: text(xmlString(auth, "Cae")).trim(),
      caeVencimiento: text(xmlString(auth, "Fch_venc_Cae")).trim(),
      fechaCbte: text(xmlString(auth, "Fch_cbte")).trim(),
      reproceso: xmlString(auth, "Reproceso")?.trim() === "S",
      observaciones: motivosObs(xmlString(auth, "Motivos_Obs")),
      errores: err ? [{ code: err.code, msg: err.message }] : [],
      eventos,
    };
  }
  if (!err) return undefined;
  // a validation failure: a single FEXErr and no result block; the number was not used
  return {
    kind: "judged",
    resultado: "R",
    cbteNro: sent.Cbte_nro,
    cae: "",
    caeVencimiento: "",
    fechaCbte: sent.Fecha_cbte,
    reproceso: false,
    observaciones: [],
    errores: [{ code: err.code, msg: err.message }],
    eventos,
  };
}

/** A FEXAuthorize the writer no longer had the right to send (its lease ran down). */
export const notStarted = appError("SERVICE_UNAVAILABLE", {
  reason: "series lease lost before sending",
});

/** A transport failure of FEXAuthorize: unknown, and whether it can still land. */
export function authorizeTransportFailure(
  failure: Parameters<typeof describeTransportFailure>[1],
  authorityTimeoutMs: number,
): TicketedAttempt<FexAuthorizeOutcome> {
  return {
    kind: "done",
    result: ok({
      kind: "unknown",
      error: describeTransportFailure("WSFEX", failure),
      over: cannotLandAnyMore(failure, authorityTimeoutMs),
    }),
  };
}
