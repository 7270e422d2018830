import { OPCIONALES, PAISES, UNIDADES } from "./tables.js";
import type { FexItem } from "./request.js";
import { between, isFactura, known, repeats, rule, VOUCHER_TYPES } from "./rule.js";
import type { FexCheck, Rule } from "./rule.js";

// The rules on FEXAuthorize's lists: items (and the total they add up to), associated
// vouchers, shipping permits, opcionales and activities. validate.ts orders them with the rest.

export const PAIS_CODES = known(PAISES.map((p) => Number(p.codigo)));
const UNIDAD_IDS = known(UNIDADES.map((u) => Number(u.id)));
const OPCIONAL_IDS = known(OPCIONALES.map((o) => o.id));
/** The opcionales of a simplified export (customs document, FOB amount): dollars only. */
const SIMPLIFICADA = known(["2401", "2402"]);
/** Units without quantity or price: 0 (none), 97 (down payment), 99 (discount line). */
const SPECIAL_UNITS = known([0, 97, 99]);
/** `99999AAXX999999A`: five digits, two letters, two letters or digits, six digits, a letter. */
const PERMISO_RE = /^\d{5}[A-Z]{2}[A-Z0-9]{2}\d{6}[A-Z]$/;
const TOLERANCE = 0.01;

const someItem = (c: FexCheck, test: (it: FexItem) => boolean): boolean => c.req.items.some(test);
const priced = (it: FexItem): boolean => !SPECIAL_UNITS.has(it.umed ?? -1);

export const ITEMS: readonly Rule[] = [
  rule(
    1666,
    "Debe informarse al menos 1 y como maximo 9999 items.",
    (c) => !between(c.req.items.length, 1, 9999),
  ),
  rule(1760, "El campo Pro_ds de cada item es obligatorio.", (c) =>
    someItem(c, (it) => it.ds === ""),
  ),
  rule(
    1770,
    "El campo Pro_umed de cada item debe ser una unidad de medida valida. Consultar metodo FEXGetPARAM_UMed.",
    (c) => someItem(c, (it) => !UNIDAD_IDS.has(it.umed ?? -1)),
  ),
  rule(1780, "El campo Pro_qty de cada item debe informarse y ser mayor o igual a 0.", (c) =>
    someItem(c, (it) => priced(it) && (it.qty ?? -1) < 0),
  ),
  rule(1790, "El campo Pro_precio_uni de cada item debe informarse y ser mayor o igual a 0.", (c) =>
    someItem(c, (it) => priced(it) && (it.precio ?? -1) < 0),
  ),
  rule(1800, "El campo Pro_bonificacion de cada item debe ser mayor o igual a 0.", (c) =>
    someItem(c, (it) => (it.bonif ?? 0) < 0),
  ),
  rule(1805, "El campo Pro_total_item de cada item es obligatorio.", (c) =>
    someItem(c, (it) => it.total === undefined),
  ),
  rule(
    1810,
    "El campo Pro_total_item debe ser igual a Pro_qty por Pro_precio_uni menos Pro_bonificacion.",
    (c) =>
      someItem(
        c,
        (it) =>
          priced(it) &&
          Math.abs((it.qty ?? 0) * (it.precio ?? 0) - (it.bonif ?? 0) - (it.total ?? 0)) >
            TOLERANCE,
      ),
  ),
  rule(
    1815,
    "Para items de bonificacion (Pro_umed 99) el campo Pro_total_item debe ser negativo.",
    (c) => someItem(c, (it) => it.umed === 99 && (it.total ?? 0) >= 0),
  ),
  rule(
    1817,
    "El campo Pro_total_item solo puede ser negativo en items de bonificacion (Pro_umed 99).",
    (c) => someItem(c, (it) => it.umed !== 99 && (it.total ?? 0) < 0),
  ),
  rule(
    1610,
    "El campo Imp_total debe ser igual a la suma de los Pro_total_item de los items.",
    (c) =>
      c.req.impTotal === undefined ||
      Math.abs(c.req.items.reduce((s, it) => s + (it.total ?? 0), 0) - c.req.impTotal) > TOLERANCE,
  ),
];

/** Notes (20, 21) name the export vouchers they adjust; an invoice names none. */
export const ASOCIADOS: readonly Rule[] = [
  rule(
    1680,
    "Para comprobantes tipo 19 no deben informarse comprobantes asociados (Cmps_asoc).",
    (c) => isFactura(c) && c.req.cmpsAsoc.length > 0,
  ),
  rule(
    1681,
    "Para comprobantes tipo 20 y 21 debe informarse al menos un comprobante asociado (Cmps_asoc).",
    (c) => !isFactura(c) && c.req.cmpsAsoc.length === 0,
  ),
  rule(1685, "El campo Cbte_tipo del comprobante asociado debe ser 19, 20 o 21.", (c) =>
    c.req.cmpsAsoc.some((a) => !VOUCHER_TYPES.has(a.tipo ?? 0)),
  ),
  rule(
    1690,
    "El campo Cbte_punto_vta del comprobante asociado debe estar comprendido entre 1 y 99998.",
    (c) => c.req.cmpsAsoc.some((a) => !between(a.pto, 1, 99998)),
  ),
  rule(
    1695,
    "El campo Cbte_nro del comprobante asociado debe estar comprendido entre 1 y 99999999.",
    (c) => c.req.cmpsAsoc.some((a) => !between(a.nro, 1, 99999999)),
  ),
  // Cbte_cuit came after the first WSDL: left out, the voucher is taken as the issuer's own
  rule(
    1700,
    "El campo Cbte_cuit del comprobante asociado debe ser igual al CUIT del emisor.",
    (c) => c.req.cmpsAsoc.some((a) => a.cuit !== 0 && String(a.cuit) !== c.cuit),
  ),
];

export const PERMISOS: readonly Rule[] = [
  rule(1720, "El campo Id_permiso no tiene el formato valido (99999AAXX999999A).", (c) =>
    c.req.permisos.some((p) => !PERMISO_RE.test(p.id)),
  ),
  rule(
    1730,
    "El campo Dst_merc del permiso no es un pais de destino valido. Consultar metodo FEXGetPARAM_DST_pais.",
    (c) => c.req.permisos.some((p) => !PAIS_CODES.has(p.dst ?? 0)),
  ),
  rule(1736, "No se puede repetir un Id_permiso.", (c) => repeats(c.req.permisos.map((p) => p.id))),
  // the same answer FEXCheck_Permiso gives for the permit and destination
  rule(
    1740,
    "El permiso de embarque informado no existe para el destino de la mercaderia. Consultar metodo FEXCheck_Permiso.",
    (c) => c.req.permisos.some((p) => c.env.deniedPermits.includes(`${p.id}|${p.dst ?? 0}`)),
  ),
];

export const OPCIONALES_RULES: readonly Rule[] = [
  rule(
    2001,
    "El campo Id del Opcional no es valido. Consultar metodo FEXGetPARAM_Opcionales.",
    (c) => c.req.opcionales.some((o) => !OPCIONAL_IDS.has(o.id)),
  ),
  rule(2002, "El campo Valor del Opcional es obligatorio.", (c) =>
    c.req.opcionales.some((o) => o.valor === ""),
  ),
  rule(2003, "No se puede repetir el Id de un Opcional.", (c) =>
    repeats(c.req.opcionales.map((o) => o.id)),
  ),
  rule(
    2010,
    "Los Opcionales de exportacion simplificada (2401 y 2402) solo pueden informarse con Moneda_Id DOL.",
    (c) => c.req.monedaId !== "DOL" && c.req.opcionales.some((o) => SIMPLIFICADA.has(o.id)),
  ),
  rule(2011, "El Valor del Opcional 2402 (monto FOB) debe ser un importe mayor a 0.", (c) =>
    c.req.opcionales.some(
      (o) => o.id === "2402" && !(/^\d+(\.\d{1,2})?$/.test(o.valor) && Number(o.valor) > 0),
    ),
  ),
];

export const ACTIVIDADES: readonly Rule[] = [
  rule(2101, "El campo Id de Actividad es invalido.", (c) =>
    (c.req.actividades ?? []).some((id) => id <= 0),
  ),
  rule(
    2102,
    "La Actividad informada no se encuentra habilitada para el emisor. Consultar metodo FEXGetPARAM_Actividades.",
    (c) => {
      const own = new Set(c.env.persons[c.cuit]?.actividades.map((a) => a.id) ?? []);
      return (c.req.actividades ?? []).some((id) => id > 0 && !own.has(id));
    },
  ),
  rule(2103, "No se puede repetir el Id de Actividad.", (c) => repeats(c.req.actividades ?? [])),
];
