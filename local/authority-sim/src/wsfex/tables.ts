/**
 * WSFEXv1 parameter tables (FEXGetPARAM_*), as the homologation service published them in
 * recorded traffic: ids, descriptions and validity dates. The
 * country and CUIT tables are a representative subset of the authority's ~300 rows each.
 */
import { paramRow as p, type ParamTable } from "../param-table.js";

/** 19–21 are the ones FEXAuthorize accepts (1530); 88 and 89 are listed all the same. */
export const CBTE_TIPOS: ParamTable = [
  p(19, "Facturas de Exportación", "20100101"),
  p(20, "Nota de Débito por Operaciones con el Exterior", "20100101"),
  p(21, "Nota de Crédito por Operaciones con el Exterior", "20100101"),
  p(88, "Remito Electrónico", "20110401"),
  p(89, "Resumen de Datos", "20110401"),
];

export const TIPOS_EXPO: ParamTable = [
  p(1, "Exportación definitiva de Bienes", "20100101"),
  p(2, "Servicios", "20100101"),
  p(4, "Otros", "20100101"),
];

/** The authority publishes each Incoterm's code as its description too. */
export const INCOTERMS: ParamTable = [
  ...["EXW", "FCA", "FAS", "FOB", "CFR", "CIF", "CPT", "CIP", "DDP"].map((code) =>
    p(code, code, "20100101"),
  ),
  p("DAP", "DAP", "20110111"),
  p("DPU", "DPU", "20200311"),
];

export const IDIOMAS: ParamTable = [
  p(1, "Español", "20091228"),
  p(2, "Inglés", "20091228"),
  p(3, "Portugués", "20091228"),
];

/** Units 0, 97 and 99 are the special lines (no quantity or price; 99 is a discount). */
export const UNIDADES: ParamTable = [
  p(1, "kilogramos", "20080704"),
  p(2, "metros", "20080704"),
  p(3, "metros cuadrados", "20080704"),
  p(4, "metros cúbicos", "20080704"),
  p(5, "litros", "20080704"),
  p(6, "1000 kWh", "20080704"),
  p(7, "unidades", "20080704"),
  p(8, "pares", "20080704"),
  p(9, "docenas", "20080704"),
  p(10, "quilates", "20080704"),
  p(11, "millares", "20080704"),
  p(14, "gramos", "20080704"),
  p(15, "milímetros", "20080704"),
  p(17, "kilómetros", "20080704"),
  p(20, "centímetros", "20080704"),
  p(29, "toneladas", "20080704"),
  p(41, "miligramos", "20080704"),
  p(47, "mililitros", "20080704"),
  p(96, "packs", "20080704"),
  p(0, "", "20091211"),
  p(97, "seña/anticipo", "20101022"),
  p(98, "otras unidades", "20101022"),
  p(99, "bonificación", "20101022"),
];

export interface Pais {
  readonly codigo: string;
  readonly desc: string;
}

export const PAISES: readonly Pais[] = [
  ["113", "EGIPTO"],
  ["159", "SUDAFRICA"],
  ["200", "ARGENTINA"],
  ["202", "BOLIVIA"],
  ["203", "BRASIL"],
  ["204", "CANADA"],
  ["205", "COLOMBIA"],
  ["206", "COSTA RICA"],
  ["208", "CHILE"],
  ["210", "ECUADOR"],
  ["212", "ESTADOS UNIDOS"],
  ["218", "MEXICO"],
  ["220", "PANAMA"],
  ["221", "PARAGUAY"],
  ["222", "PERU"],
  ["225", "URUGUAY"],
  ["226", "VENEZUELA"],
  ["297", "RESTO AMERICA"],
  ["298", "INDETERMINADO (AMERICA)"],
  ["309", "COREA REPUBLICANA"],
  ["310", "CHINA"],
  ["315", "INDIA"],
  ["320", "JAPON"],
  ["331", "EMIRATOS ARABES UNIDOS"],
  ["410", "ESPAÑA"],
  ["412", "FRANCIA"],
  ["417", "ITALIA"],
  ["423", "PAISES BAJOS"],
  ["425", "PORTUGAL"],
  ["426", "REINO UNIDO"],
  ["430", "SUIZA"],
  ["438", "ALEMANIA,REP.FED."],
  ["444", "RUSIA"],
].map(([codigo, desc]) => ({ codigo: codigo ?? "", desc: desc ?? "" }));

export interface CuitPais {
  readonly cuit: string;
  readonly desc: string;
}

/** Generic CUITs per country: 50… for individuals, 55… for legal entities (valid check digits). */
export const CUITS_PAIS: readonly CuitPais[] = [
  ["50000000016", "URUGUAY - Persona Física"],
  ["50000000024", "PARAGUAY - Persona Física"],
  ["50000000032", "CHILE - Persona Física"],
  ["50000000040", "BOLIVIA - Persona Física"],
  ["50000000059", "BRASIL - Persona Física"],
  ["50000002124", "ESTADOS UNIDOS - Persona Física"],
  ["50000002183", "MEXICO - Persona Física"],
  ["50000003104", "CHINA REP.POPULAR - Persona Física"],
  ["50000003201", "JAPON - Persona Física"],
  ["55000000018", "URUGUAY - Persona Jurídica"],
  ["55000000026", "PARAGUAY - Persona Jurídica"],
  ["55000000034", "CHILE - Persona Jurídica"],
  ["55000000042", "BOLIVIA - Persona Jurídica"],
  ["55000000050", "BRASIL - Persona Jurídica"],
  ["55000002126", "ESTADOS UNIDOS - Persona Jurídica"],
  ["55000002185", "MEXICO - Persona Jurídica"],
  ["55000003106", "CHINA REP.POPULAR - Persona Jurídica"],
  ["55000003203", "JAPON - Persona Jurídica"],
  ["55000004102", "ESPAÑA - Persona Jurídica"],
  ["55000004129", "FRANCIA - Persona Jurídica"],
  ["55000004269", "REINO UNIDO - Persona Jurídica"],
  ["55000004382", "ALEMANIA, REP. FED. - Persona Jurídica"],
].map(([cuit, desc]) => ({ cuit: cuit ?? "", desc: desc ?? "" }));

/**
 * The opcionales FEXAuthorize accepts: those of a simplified export, the customs document
 * (2401) and its FOB amount in dollars (2402).
 */
export const OPCIONALES: ParamTable = [
  p(2401, "Exportación simplificada: número de documento aduanero", "20190101"),
  p(2402, "Exportación simplificada: monto FOB en dólares", "20190101"),
];
