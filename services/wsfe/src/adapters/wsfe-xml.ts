import {
  describeTransportFailure,
  xmlChild,
  xmlElement,
  xmlList,
  xmlString,
  type AccessTicket,
  type XmlObject,
} from "@pasarela/authority";
import { fail, ok, type AppError, type Result } from "@pasarela/errors";
import { decimalText } from "../domain/amount.js";
import type { AuthorityMessage, CaeDetalleRespuesta } from "../domain/cae-answer.js";
import type { AuthorityComprobante } from "../domain/comprobante.js";
import type { FECAEDetRequest } from "../domain/issuance/index.js";
import type { AuthorityRow } from "../domain/parametros.js";

/** WSFE's XML both ways: the Auth and voucher elements sent, and the answers read. */

export const auth = (ticket: AccessTicket) =>
  `<Auth>${xmlElement("Token", ticket.token)}${xmlElement("Sign", ticket.sign)}${xmlElement("Cuit", ticket.cuit)}</Auth>`;

export function intOf(value: string | undefined): number | undefined {
  return value !== undefined && /^\s*-?\d+\s*$/.test(value) ? Number(value) : undefined;
}

export const unreadable = (what: string): AppError =>
  describeTransportFailure("WSFE", { kind: "unreadable", message: what });

export function readComprobante(resultGet: XmlObject): Result<AuthorityComprobante> {
  const cbteDesde = intOf(xmlString(resultGet, "CbteDesde"));
  const cbteHasta = intOf(xmlString(resultGet, "CbteHasta"));
  const impTotal = decimalText(xmlString(resultGet, "ImpTotal"));
  const impNeto = decimalText(xmlString(resultGet, "ImpNeto"));
  const impIVA = decimalText(xmlString(resultGet, "ImpIVA"));
  if (
    cbteDesde === undefined ||
    cbteHasta === undefined ||
    impTotal === undefined ||
    impNeto === undefined ||
    impIVA === undefined
  ) {
    return fail(unreadable("FECompConsultar sin números de comprobante o importes"));
  }
  return ok({
    codAutorizacion: xmlString(resultGet, "CodAutorizacion") ?? "",
    resultado: xmlString(resultGet, "Resultado") ?? "",
    docTipo: intOf(xmlString(resultGet, "DocTipo")),
    docNro: xmlString(resultGet, "DocNro")?.trim(),
    fchVto: xmlString(resultGet, "FchVto") || undefined,
    emisionTipo: xmlString(resultGet, "EmisionTipo")?.trim() || undefined,
    cbteDesde,
    cbteHasta,
    cbteFch: xmlString(resultGet, "CbteFch") ?? "",
    impTotal,
    impNeto,
    impIVA,
  });
}

/** Every `<wrapper><item><Code/><Msg/></item>…` of an element, as code and text. */
export function messagesOf(parent: XmlObject | undefined, wrapper: string, item: string) {
  return xmlList(xmlChild(parent, wrapper), item).map((m): AuthorityMessage => ({
    code: intOf(xmlString(m, "Code")) ?? -1,
    msg: xmlString(m, "Msg") ?? "",
  }));
}

const optional = (name: string, value: string | number | undefined) =>
  value === undefined ? "" : xmlElement(name, value);

/** One FECAEDetRequest in exact WSDL order; absent optionals omitted. */
export function detalleXml(d: FECAEDetRequest): string {
  const list = <T>(wrapper: string, items: readonly T[] | undefined, item: (x: T) => string) =>
    items === undefined || items.length === 0
      ? ""
      : `<${wrapper}>${items.map(item).join("")}</${wrapper}>`;
  return (
    `<FECAEDetRequest>` +
    xmlElement("Concepto", d.Concepto) +
    xmlElement("DocTipo", d.DocTipo) +
    xmlElement("DocNro", d.DocNro) +
    xmlElement("CbteDesde", d.CbteDesde) +
    xmlElement("CbteHasta", d.CbteHasta) +
    xmlElement("CbteFch", d.CbteFch) +
    xmlElement("ImpTotal", d.ImpTotal) +
    xmlElement("ImpTotConc", d.ImpTotConc) +
    xmlElement("ImpNeto", d.ImpNeto) +
    xmlElement("ImpOpEx", d.ImpOpEx) +
    xmlElement("ImpTrib", d.ImpTrib) +
    xmlElement("ImpIVA", d.ImpIVA) +
    optional("FchServDesde", d.FchServDesde) +
    optional("FchServHasta", d.FchServHasta) +
    optional("FchVtoPago", d.FchVtoPago) +
    xmlElement("MonId", d.MonId) +
    xmlElement("MonCotiz", d.MonCotiz) +
    optional("CanMisMonExt", d.CanMisMonExt) +
    xmlElement("CondicionIVAReceptorId", d.CondicionIVAReceptorId) +
    list(
      "CbtesAsoc",
      d.CbtesAsoc,
      (c) =>
        `<CbteAsoc>${xmlElement("Tipo", c.Tipo)}${xmlElement("PtoVta", c.PtoVta)}${xmlElement("Nro", c.Nro)}` +
        `${optional("Cuit", c.Cuit)}${optional("CbteFch", c.CbteFch)}</CbteAsoc>`,
    ) +
    list(
      "Tributos",
      d.Tributos,
      (t) =>
        `<Tributo>${xmlElement("Id", t.Id)}${optional("Desc", t.Desc)}${xmlElement("BaseImp", t.BaseImp)}` +
        `${xmlElement("Alic", t.Alic)}${xmlElement("Importe", t.Importe)}</Tributo>`,
    ) +
    list(
      "Iva",
      d.Iva,
      (i) =>
        `<AlicIva>${xmlElement("Id", i.Id)}${xmlElement("BaseImp", i.BaseImp)}${xmlElement("Importe", i.Importe)}</AlicIva>`,
    ) +
    list(
      "Opcionales",
      d.Opcionales,
      (o) => `<Opcional>${xmlElement("Id", o.Id)}${xmlElement("Valor", o.Valor)}</Opcional>`,
    ) +
    `</FECAEDetRequest>`
  );
}

/** The details of a FECAESolicitar answer, or undefined when one is unreadable. */
export function readDetalles(result: XmlObject): CaeDetalleRespuesta[] | undefined {
  const out: CaeDetalleRespuesta[] = [];
  for (const d of xmlList(xmlChild(result, "FeDetResp"), "FECAEDetResponse")) {
    const cbteDesde = intOf(xmlString(d, "CbteDesde"));
    const cbteHasta = intOf(xmlString(d, "CbteHasta"));
    const resultado = xmlString(d, "Resultado");
    if (cbteDesde === undefined || cbteHasta === undefined || !resultado) return undefined;
    const cae = xmlString(d, "CAE") ?? "";
    // a CAE is 14 digits: an A without one cannot be relied on
    if (resultado === "A" && !/^\d{14}$/.test(cae)) return undefined;
    out.push({
      cbteDesde,
      cbteHasta,
      cbteFch: xmlString(d, "CbteFch") ?? "",
      resultado,
      cae,
      caeFchVto: xmlString(d, "CAEFchVto") ?? "",
      observaciones: messagesOf(d, "Observaciones", "Obs"),
    });
  }
  return out;
}

export function textRow(row: XmlObject): AuthorityRow {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(row)) if (typeof value === "string") out[name] = value;
  return out;
}
