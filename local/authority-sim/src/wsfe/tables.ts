import { paramRow, type ParamTable } from "../param-table.js";

/** A row of a WSFEv1 table; most took effect with the service, on 2010-09-17. */
const p = (id: number | string, desc: string, desde = "20100917") => paramRow(id, desc, desde);

export const CBTE_TIPOS: ParamTable = [
  p(1, "Factura A"),
  p(2, "Nota de Débito A"),
  p(3, "Nota de Crédito A"),
  p(4, "Recibo A"),
  p(5, "Nota de Venta al contado A"),
  p(6, "Factura B"),
  p(7, "Nota de Débito B"),
  p(8, "Nota de Crédito B"),
  p(9, "Recibo B"),
  p(10, "Nota de Venta al contado B"),
  p(11, "Factura C", "20110330"),
  p(12, "Nota de Débito C", "20110330"),
  p(13, "Nota de Crédito C", "20110330"),
  p(15, "Recibo C", "20110330"),
  p(34, "Cbtes. A del Anexo I, Apartado A,inc.f),R.G.Nro. 1415"),
  p(35, "Cbtes. B del Anexo I,Apartado A,inc. f),R.G. Nro. 1415"),
  p(39, "Otros comprobantes A que cumplan con R.G.Nro. 1415"),
  p(40, "Otros comprobantes B que cumplan con R.G.Nro. 1415"),
  p(49, "Comprobante de Compra de Bienes Usados a Consumidor Final", "20130401"),
  p(51, "Factura M", "20150522"),
  p(52, "Nota de Débito M", "20150522"),
  p(53, "Nota de Crédito M", "20150522"),
  p(54, "Recibo M", "20150522"),
  p(60, "Cta de Vta y Liquido prod. A"),
  p(61, "Cta de Vta y Liquido prod. B"),
  p(63, "Liquidacion A"),
  p(64, "Liquidacion B"),
  p(201, "Factura de Crédito electrónica MiPyMEs (FCE) A", "20181226"),
  p(202, "Nota de Débito electrónica MiPyMEs (FCE) A", "20181226"),
  p(203, "Nota de Crédito electrónica MiPyMEs (FCE) A", "20181226"),
  p(206, "Factura de Crédito electrónica MiPyMEs (FCE) B", "20181226"),
  p(207, "Nota de Débito electrónica MiPyMEs (FCE) B", "20181226"),
  p(208, "Nota de Crédito electrónica MiPyMEs (FCE) B", "20181226"),
  p(211, "Factura de Crédito electrónica MiPyMEs (FCE) C", "20181226"),
  p(212, "Nota de Débito electrónica MiPyMEs (FCE) C", "20181226"),
  p(213, "Nota de Crédito electrónica MiPyMEs (FCE) C", "20181226"),
];

export type CbteClass = "A" | "B" | "C" | "M" | "49";

const CLASS: Record<number, CbteClass> = {};
for (const id of [1, 2, 3, 4, 5, 34, 39, 60, 63, 201, 202, 203]) CLASS[id] = "A";
for (const id of [6, 7, 8, 9, 10, 35, 40, 61, 64, 206, 207, 208]) CLASS[id] = "B";
for (const id of [11, 12, 13, 15, 211, 212, 213]) CLASS[id] = "C";
for (const id of [51, 52, 53, 54]) CLASS[id] = "M";
CLASS[49] = "49";

export function cbteClass(tipo: number): CbteClass | undefined {
  return CLASS[tipo];
}

export const isFce = (tipo: number): boolean => tipo >= 201 && tipo <= 213;
export const FCE_INVOICES: ReadonlySet<number> = new Set([201, 206, 211]);
export const NOTES: ReadonlySet<number> = new Set([
  2, 3, 7, 8, 12, 13, 52, 53, 202, 203, 207, 208, 212, 213,
]);
export const CREDIT_NOTES: ReadonlySet<number> = new Set([3, 8, 13, 53, 203, 208, 213]);
/** Notes exempt from the ΣBaseImp = ImpNeto rule. */
export const NO_BASE_SUM: ReadonlySet<number> = new Set([2, 3, 7, 8, 52, 53]);

/** Which voucher types each note may associate (CbtesAsoc). */
export const ASSOCIABLE: Readonly<Record<number, ReadonlySet<number>>> = {
  2: new Set([1, 2, 3, 4, 5, 34, 39, 60, 63, 88, 991]),
  3: new Set([1, 2, 3, 4, 5, 34, 39, 60, 63, 88, 991]),
  7: new Set([6, 7, 8, 9, 10, 35, 40, 61, 64, 88, 991]),
  8: new Set([6, 7, 8, 9, 10, 35, 40, 61, 64, 88, 991]),
  12: new Set([11, 12, 13, 15]),
  13: new Set([11, 12, 13, 15]),
  52: new Set([51, 52, 53, 54]),
  53: new Set([51, 52, 53, 54]),
  202: new Set([201, 202, 203]),
  203: new Set([201, 202, 203]),
  207: new Set([206, 207, 208]),
  208: new Set([206, 207, 208]),
  212: new Set([211, 212, 213]),
  213: new Set([211, 212, 213]),
};
export const CBTES_ASOC_ALLOWED: ReadonlySet<number> = new Set([
  1, 2, 3, 6, 7, 8, 12, 13, 51, 52, 53, 201, 202, 203, 206, 207, 208, 211, 212, 213,
]);

export const CONCEPTOS: ParamTable = [
  p(1, "Producto", "20100917"),
  p(2, "Servicios", "20100917"),
  p(3, "Productos y Servicios", "20100917"),
];

export const DOC_TIPOS: ParamTable = [
  p(80, "CUIT", "20080725"),
  p(86, "CUIL", "20080725"),
  p(87, "CDI", "20080725"),
  p(89, "LE", "20080725"),
  p(90, "LC", "20080725"),
  p(91, "CI Extranjera", "20080725"),
  p(92, "en trámite", "20080725"),
  p(93, "Acta Nacimiento", "20080725"),
  p(95, "CI Bs. As. RNP", "20080725"),
  p(96, "DNI", "20080725"),
  p(94, "Pasaporte", "20080725"),
  p(0, "CI Policía Federal", "20080725"),
  p(1, "CI Buenos Aires", "20080725"),
  p(2, "CI Catamarca", "20080725"),
  p(3, "CI Córdoba", "20080725"),
  p(4, "CI Corrientes", "20080725"),
  p(5, "CI Entre Ríos", "20080725"),
  p(6, "CI Jujuy", "20080725"),
  p(7, "CI Mendoza", "20080725"),
  p(8, "CI La Rioja", "20080725"),
  p(9, "CI Salta", "20080725"),
  p(10, "CI San Juan", "20080725"),
  p(11, "CI San Luis", "20080725"),
  p(12, "CI Santa Fe", "20080725"),
  p(13, "CI Santiago del Estero", "20080725"),
  p(14, "CI Tucumán", "20080725"),
  p(16, "CI Chaco", "20080725"),
  p(17, "CI Chubut", "20080725"),
  p(18, "CI Formosa", "20080725"),
  p(19, "CI Misiones", "20080725"),
  p(20, "CI Neuquén", "20080725"),
  p(21, "CI La Pampa", "20080725"),
  p(22, "CI Río Negro", "20080725"),
  p(23, "CI Santa Cruz", "20080725"),
  p(24, "CI Tierra del Fuego", "20080725"),
  p(99, "Doc. (Otro)", "20080725"),
];

export const IVA_RATES: Readonly<Record<number, number>> = {
  3: 0,
  4: 0.105,
  5: 0.21,
  6: 0.27,
  8: 0.05,
  9: 0.025,
};

export const TIPOS_IVA: ParamTable = [
  p(3, "0%", "20090220"),
  p(4, "10.5%", "20090220"),
  p(5, "21%", "20090220"),
  p(6, "27%", "20090220"),
  p(8, "5%", "20141020"),
  p(9, "2.5%", "20141020"),
];

export const MONEDAS: ParamTable = [
  p("PES", "Pesos Argentinos", "20090403"),
  p("DOL", "Dólar Estadounidense", "20090403"),
  p("002", "Dólar Libre EEUU", "20090416"),
  p("010", "Pesos Mejicanos", "20090403"),
  p("011", "Pesos Uruguayos", "20090403"),
  p("012", "Real", "20090403"),
  p("014", "Coronas Danesas", "20090403"),
  p("015", "Coronas Noruegas", "20090403"),
  p("016", "Coronas Suecas", "20090403"),
  p("018", "Dólar Canadiense", "20090403"),
  p("019", "Yens", "20090403"),
  p("021", "Libra Esterlina", "20090403"),
  p("026", "Dólar Australiano", "20090403"),
  p("029", "Guaraní", "20090403"),
  p("031", "Peso Boliviano", "20090403"),
  p("032", "Peso Colombiano", "20090403"),
  p("033", "Peso Chileno", "20090403"),
  p("035", "Nuevo Sol Peruano", "20090403"),
  p("060", "Euro", "20090403"),
];

export const TRIBUTOS: ParamTable = [
  p(1, "Impuestos nacionales"),
  p(2, "Impuestos provinciales"),
  p(3, "Impuestos municipales"),
  p(4, "Impuestos Internos"),
  p(5, "IIBB", "20170719"),
  p(6, "Percepción de IVA", "20170719"),
  p(7, "Percepción de IIBB", "20170719"),
  p(8, "Percepciones por Impuestos Municipales", "20170719"),
  p(9, "Otras Percepciones", "20170719"),
  p(13, "Percepción de IVA a no Categorizado", "20170719"),
  p(99, "Otro"),
];

export const OPCIONALES: ParamTable = [
  p(
    2,
    "RG Empresas Promovidas - Indentificador de proyecto vinculado a Régimen de Promoción Industrial",
    "20100917",
  ),
  p(5, "RG 3668 Impuesto al Valor Agregado - Excepcion computo IVA Credito Fiscal", "20140423"),
  p(61, "RG 3668 Firmante Doc Tipo", "20140423"),
  p(62, "RG 3668 Firmante Doc Nro", "20140423"),
  p(7, "RG 3668 Carácter del Firmante", "20140423"),
  p(91, "RG 3411 Nombre y Apellido o Razón Social del vendedor", "20121101"),
  p(92, "RG 3411 Nacionalidad del vendedor", "20121101"),
  p(93, "RG 3411 Domicilio del vendedor", "20121101"),
  p(10, "RG 3368 Establecimientos de educación pública de gestión privada - Incluido", "20121101"),
  p(
    1011,
    "RG 3368 Establecimientos de educación pública de gestión privada - Tipo de Documento",
    "20121101",
  ),
  p(
    1012,
    "RG 3368 Establecimientos de educación pública de gestión privada - Número de Documento",
    "20121101",
  ),
  p(11, "RG 2820 Operaciones económicas vinculadas con bienes inmuebles", "20160629"),
  p(12, "RG 3687 Locación temporaria de inmuebles con fines turísticos", "20160629"),
  p(13, "RG 2863 Representantes de Modelos", "20160629"),
  p(14, "RG 2863 Agencias de publicidad", "20160629"),
  p(15, "RG 2863 Personas físicas que desarrollen actividad de modelaje", "20160629"),
  p(17, "RG 4004-E Locación de inmuebles destino 'casa-habitación'", "20170314"),
  p(
    1801,
    "RG 4004-E Locación de inmuebles destino 'casa-habitación' - CUIT del propietario",
    "20170314",
  ),
  p(
    1802,
    "RG 4004-E Locación de inmuebles destino 'casa-habitación' - Apellido y nombre del propietario",
    "20170314",
  ),
  p(2101, "Factura de Crédito Electrónica MiPyMEs (FCE) - CBU del Emisor", "20181226"),
  p(2102, "Factura de Crédito Electrónica MiPyMEs (FCE) - Alias del Emisor", "20181226"),
  p(22, "Factura de Crédito Electrónica MiPyMEs (FCE) - Anulación", "20181226"),
  p(23, "Factura de Crédito Electrónica MiPyMEs (FCE) - Referencia Comercial", "20190301"),
  p(27, "Factura de Crédito Electrónica MiPyMEs (FCE) - Transferencia", "20210301"),
];

/** The opcionales only FCE vouchers may carry (10169). */
export const FCE_OPCIONALES: ReadonlySet<string> = new Set(["2101", "2102", "22", "27"]);
/** Opcionales that may repeat (10054); 23 too, with distinct values. */
export const REPEATABLE_OPCIONALES: ReadonlySet<string> = new Set(["1801", "1802", "2901", "2902"]);

export interface CondicionIva {
  id: number;
  desc: string;
  clases: readonly CbteClass[];
}

export const CONDICIONES_IVA: readonly CondicionIva[] = [
  { id: 1, desc: "IVA Responsable Inscripto", clases: ["A", "M", "C"] },
  { id: 6, desc: "Responsable Monotributo", clases: ["A", "M", "C"] },
  { id: 13, desc: "Monotributista Social", clases: ["A", "M", "C"] },
  { id: 16, desc: "Monotributo Trabajador Independiente Promovido", clases: ["A", "M", "C"] },
  { id: 4, desc: "IVA Sujeto Exento", clases: ["B", "C"] },
  { id: 5, desc: "Consumidor Final", clases: ["B", "C", "49"] },
  { id: 7, desc: "Sujeto No Categorizado", clases: ["B", "C"] },
  { id: 8, desc: "Proveedor del Exterior", clases: ["B", "C"] },
  { id: 9, desc: "Cliente del Exterior", clases: ["B", "C"] },
  { id: 10, desc: "IVA Liberado – Ley N° 19.640", clases: ["B", "C"] },
  { id: 15, desc: "IVA No Alcanzado", clases: ["B", "C"] },
];

export function cmpClase(c: CondicionIva): string {
  return c.clases.map((k) => (k === "M" ? "ALEY" : k)).join("/");
}
