import { isPosEnabled } from "../state.js";
import { dayNumber } from "../time.js";
import { MONEDAS } from "../wsfe/tables.js";
import { ACTIVIDADES, ASOCIADOS, ITEMS, OPCIONALES_RULES, PAIS_CODES, PERMISOS } from "./lists.js";
import {
  between,
  fechaCbte,
  isFactura,
  known,
  officialQuote,
  rule,
  VOUCHER_TYPES,
} from "./rule.js";
import type { FexCheck, Rule } from "./rule.js";
import { CUITS_PAIS, INCOTERMS } from "./tables.js";

const DST_CUITS = known(CUITS_PAIS.map((c) => Number(c.cuit)));
const MONEDA_IDS = known(MONEDAS.map((m) => m.id));
const INCOTERM_IDS = known(INCOTERMS.map((i) => i.id));
const TIPOS_EXPO = known([1, 2, 4]);
const IDIOMAS = known([1, 2, 3]);

const isBienes = (c: FexCheck): boolean => isFactura(c) && c.req.tipoExpo === 1;
const paysLater = (c: FexCheck): boolean =>
  isFactura(c) && (c.req.tipoExpo === 2 || c.req.tipoExpo === 4);
const isForeign = (c: FexCheck): boolean => c.req.monedaId !== "PES";
const hasCuitPais = (c: FexCheck): boolean =>
  c.req.cuitPaisCliente !== undefined && c.req.cuitPaisCliente !== 0;

const HEADER: readonly Rule[] = [
  rule(1014, "El campo Id debe ser mayor o igual a 0.", (c) => (c.req.id ?? -1) < 0),
  rule(
    1500,
    "El campo Fecha_cbte debe ser nulo o estar comprendido en el rango N-5 y N+5 siendo N la fecha de envio.",
    (c) => {
      const day = dayNumber(fechaCbte(c));
      const today = dayNumber(c.today) ?? 0;
      return day === undefined || day < today - 5 || day > today + 5;
    },
  ),
  rule(
    1510,
    "El campo Punto_vta debe estar comprendido entre 1 y 99998 y ser del tipo Comprobantes de Exportacion - Web Services (FEEWS).",
    (c) =>
      !between(c.req.puntoVta, 1, 99998) ||
      !isPosEnabled(c.env, "wsfex", c.cuit, c.req.puntoVta ?? 0),
  ),
  rule(
    1520,
    "El campo Cbte_nro debe estar comprendido entre 1 y 99999999.",
    (c) => !between(c.req.cbteNro, 1, 99999999),
  ),
  rule(
    1530,
    "El campo Cbte_Tipo debe ser 19, 20 o 21.",
    (c) => !VOUCHER_TYPES.has(c.req.cbteTipo ?? 0),
  ),
  rule(
    1535,
    "El numero de comprobante informado no es el proximo a autorizar. Consultar metodo FEXGetLast_CMP.",
    (c) => c.req.cbteNro !== c.last + 1,
  ),
  rule(
    1540,
    "El campo Tipo_expo debe ser 1, 2 o 4. Consultar metodo FEXGetPARAM_Tipo_Expo.",
    (c) => !TIPOS_EXPO.has(c.req.tipoExpo ?? 0),
  ),
];

/** Permiso_existente is S or N for goods (19, Tipo_expo 1) and empty otherwise. */
const PERMISO_EXISTENTE: readonly Rule[] = [
  rule(
    1550,
    "El campo Permiso_existente solo puede tomar los valores S, N o vacio.",
    (c) => !["", "S", "N"].includes(c.req.permisoExistente),
  ),
  rule(
    1550,
    "Para comprobantes tipo 19 con Tipo_expo 1 el campo Permiso_existente es obligatorio (S o N).",
    (c) => isBienes(c) && c.req.permisoExistente === "",
  ),
  rule(
    1550,
    "El campo Permiso_existente solo debe informarse en comprobantes tipo 19 con Tipo_expo 1.",
    (c) => !isBienes(c) && c.req.permisoExistente !== "",
  ),
  rule(
    1550,
    "Si Permiso_existente es S debe informarse al menos un Permiso.",
    (c) => c.req.permisoExistente === "S" && c.req.permisos.length === 0,
  ),
  rule(
    1550,
    "Si Permiso_existente es N o vacio no deben informarse Permisos.",
    (c) => c.req.permisoExistente !== "S" && c.req.permisos.length > 0,
  ),
];

const CLIENTE: readonly Rule[] = [
  rule(
    1560,
    "El campo Dst_cmp no es un pais de destino valido. Consultar metodo FEXGetPARAM_DST_pais.",
    (c) => !PAIS_CODES.has(c.req.dstCmp ?? 0),
  ),
  rule(
    1570,
    "El campo Cuit_pais_cliente no es valido. Consultar metodo FEXGetPARAM_DST_CUIT.",
    (c) => hasCuitPais(c) && !DST_CUITS.has(c.req.cuitPaisCliente ?? 0),
  ),
  rule(
    1580,
    "Debe informarse el campo Cuit_pais_cliente o el campo Id_impositivo.",
    (c) => !hasCuitPais(c) && c.req.idImpositivo === "",
  ),
];

const MONEDA: readonly Rule[] = [
  rule(
    1590,
    "El campo Moneda_Id no es valido. Consultar metodo FEXGetPARAM_MON.",
    (c) => !MONEDA_IDS.has(c.req.monedaId),
  ),
  rule(
    1602,
    "El campo Moneda_ctz es obligatorio salvo que CanMisMonExt sea S.",
    (c) => c.req.monedaCtz === undefined && c.req.canMisMonExt !== "S",
  ),
  rule(1600, "El campo Moneda_ctz debe ser mayor a 0.", (c) =>
    c.req.monedaCtz === undefined ? false : c.req.monedaCtz <= 0,
  ),
  rule(
    1601,
    "Si Moneda_Id es PES el campo Moneda_ctz debe ser igual a 1.",
    (c) => !isForeign(c) && c.req.monedaCtz !== undefined && c.req.monedaCtz !== 1,
  ),
  rule(
    1603,
    "El campo CanMisMonExt solo puede tomar los valores S o N.",
    (c) => !["", "S", "N"].includes(c.req.canMisMonExt),
  ),
  rule(
    1604,
    "El campo CanMisMonExt solo debe informarse cuando Moneda_Id es una moneda extranjera.",
    (c) => !isForeign(c) && c.req.canMisMonExt !== "",
  ),
  // cancelling in the same foreign currency ties the voucher to the official quote
  rule(
    1605,
    "Si CanMisMonExt es S el campo Moneda_ctz debe ser la cotizacion oficial de la moneda. Consultar metodo FEXGetPARAM_Ctz.",
    (c) => {
      if (c.req.canMisMonExt !== "S") return false;
      const quote = officialQuote(c.env, c.req.monedaId);
      if (quote === undefined) return true;
      return c.req.monedaCtz !== undefined && Math.abs(c.req.monedaCtz - quote) > 0.00005;
    },
  ),
];

const CONDICIONES: readonly Rule[] = [
  rule(
    1620,
    "Para comprobantes tipo 19 el campo Forma_pago es obligatorio.",
    (c) => isFactura(c) && c.req.formaPago === "",
  ),
  rule(
    1630,
    "El campo Idioma_cbte debe ser 1, 2 o 3. Consultar metodo FEXGetPARAM_Idiomas.",
    (c) => !IDIOMAS.has(c.req.idiomaCbte ?? 0),
  ),
  rule(
    1640,
    "Para comprobantes tipo 19 con Tipo_expo 1 el campo Incoterms es obligatorio.",
    (c) => isBienes(c) && c.req.incoterms === "",
  ),
  rule(
    1641,
    "El campo Incoterms no es valido. Consultar metodo FEXGetPARAM_Incoterms.",
    (c) => c.req.incoterms !== "" && !INCOTERM_IDS.has(c.req.incoterms),
  ),
  rule(
    1642,
    "El campo Incoterms_Ds no puede superar los 20 caracteres.",
    (c) => c.req.incotermsDs.length > 20,
  ),
  rule(1650, "El campo Cliente es obligatorio.", (c) => c.req.cliente === ""),
  rule(
    1651,
    "El campo Cliente no puede superar los 200 caracteres.",
    (c) => c.req.cliente.length > 200,
  ),
  rule(1660, "El campo Domicilio_cliente es obligatorio.", (c) => c.req.domicilioCliente === ""),
  rule(
    1661,
    "El campo Domicilio_cliente no puede superar los 300 caracteres.",
    (c) => c.req.domicilioCliente.length > 300,
  ),
  rule(
    1671,
    "El campo Fecha_pago debe tener formato yyyymmdd.",
    (c) => c.req.fechaPago !== "" && dayNumber(c.req.fechaPago) === undefined,
  ),
  rule(
    1672,
    "Para comprobantes tipo 19 con Tipo_expo 2 o 4 el campo Fecha_pago es obligatorio.",
    (c) => paysLater(c) && c.req.fechaPago === "",
  ),
  rule(
    1673,
    "El campo Fecha_pago solo debe informarse en comprobantes tipo 19 con Tipo_expo 2 o 4.",
    (c) => !paysLater(c) && c.req.fechaPago !== "",
  ),
  rule(
    1674,
    "El campo Fecha_pago debe ser igual o posterior a Fecha_cbte.",
    (c) => c.req.fechaPago !== "" && c.req.fechaPago < fechaCbte(c),
  ),
];

/**
 * Every rule of FEXAuthorize in the order they are judged. The service answers one FEXErr, so
 * the first failing rule is the answer: the voucher's identity first (Id, date, series,
 * number), then its parties and currency, the items before the total they add up to, and the
 * optional blocks last.
 */
const RULES: readonly Rule[] = [
  ...HEADER,
  ...PERMISO_EXISTENTE,
  ...CLIENTE,
  ...MONEDA,
  ...ITEMS,
  ...CONDICIONES,
  ...ASOCIADOS,
  ...PERMISOS,
  ...OPCIONALES_RULES,
  ...ACTIVIDADES,
];

/** The first rule the request breaks, or undefined when it is to be authorized. */
export function judgeFex(c: FexCheck): { code: number; msg: string } | undefined {
  const broken = RULES.find((r) => r.fails(c));
  return broken === undefined ? undefined : { code: broken.code, msg: broken.msg };
}
