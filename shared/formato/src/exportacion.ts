/**
 * What an export voucher (WSFEXv1) names by code, in the three languages it may be printed in:
 * destination countries (FEXGetPARAM_DST_pais), units (FEXGetPARAM_UMed) and export types
 * (FEXGetPARAM_Tipo_Expo). The authority's descriptions are upper-case Spanish without accents;
 * these are the names as people write them.
 */

/** The languages of an export voucher by the authority's code (FEXGetPARAM_Idiomas). */
export const IDIOMAS = { 1: "es", 2: "en", 3: "pt" } as const;
export type Idioma = (typeof IDIOMAS)[keyof typeof IDIOMAS];

/** The language of a voucher's `idioma` code; one the authority does not list reads as Spanish. */
export const idiomaDe = (codigo: number | undefined): Idioma =>
  codigo !== undefined && Object.hasOwn(IDIOMAS, codigo)
    ? IDIOMAS[codigo as keyof typeof IDIOMAS]
    : "es";

type Nombres = readonly [es: string, en: string, pt: string];
const INDICE: Readonly<Record<Idioma, 0 | 1 | 2>> = { es: 0, en: 1, pt: 2 };

const PAISES: Readonly<Record<number, Nombres>> = {
  113: ["Egipto", "Egypt", "Egito"],
  159: ["Sudáfrica", "South Africa", "África do Sul"],
  200: ["Argentina", "Argentina", "Argentina"],
  202: ["Bolivia", "Bolivia", "Bolívia"],
  203: ["Brasil", "Brazil", "Brasil"],
  204: ["Canadá", "Canada", "Canadá"],
  205: ["Colombia", "Colombia", "Colômbia"],
  206: ["Costa Rica", "Costa Rica", "Costa Rica"],
  208: ["Chile", "Chile", "Chile"],
  210: ["Ecuador", "Ecuador", "Equador"],
  212: ["Estados Unidos", "United States", "Estados Unidos"],
  218: ["México", "Mexico", "México"],
  220: ["Panamá", "Panama", "Panamá"],
  221: ["Paraguay", "Paraguay", "Paraguai"],
  222: ["Perú", "Peru", "Peru"],
  225: ["Uruguay", "Uruguay", "Uruguai"],
  226: ["Venezuela", "Venezuela", "Venezuela"],
  297: ["Resto de América", "Rest of America", "Resto da América"],
  298: ["Indeterminado (América)", "Undetermined (America)", "Indeterminado (América)"],
  309: ["Corea del Sur", "South Korea", "Coreia do Sul"],
  310: ["China", "China", "China"],
  315: ["India", "India", "Índia"],
  320: ["Japón", "Japan", "Japão"],
  331: ["Emiratos Árabes Unidos", "United Arab Emirates", "Emirados Árabes Unidos"],
  410: ["España", "Spain", "Espanha"],
  412: ["Francia", "France", "França"],
  417: ["Italia", "Italy", "Itália"],
  423: ["Países Bajos", "Netherlands", "Países Baixos"],
  425: ["Portugal", "Portugal", "Portugal"],
  426: ["Reino Unido", "United Kingdom", "Reino Unido"],
  430: ["Suiza", "Switzerland", "Suíça"],
  438: ["Alemania", "Germany", "Alemanha"],
  444: ["Rusia", "Russia", "Rússia"],
};

const PAIS_SIN_NOMBRE: Readonly<Record<Idioma, string>> = {
  es: "País",
  en: "Country",
  pt: "País",
};

/** A destination country by its code ("212" → "Estados Unidos"), else "País 999" in the language. */
export function nombrePais(codigo: number, idioma: Idioma = "es"): string {
  return PAISES[codigo]?.[INDICE[idioma]] ?? `${PAIS_SIN_NOMBRE[idioma]} ${codigo}`;
}

const UNIDADES: Readonly<Record<number, Nombres>> = {
  0: ["", "", ""],
  1: ["kilogramos", "kilograms", "quilogramas"],
  2: ["metros", "metres", "metros"],
  3: ["metros cuadrados", "square metres", "metros quadrados"],
  4: ["metros cúbicos", "cubic metres", "metros cúbicos"],
  5: ["litros", "litres", "litros"],
  6: ["1000 kWh", "1000 kWh", "1000 kWh"],
  7: ["unidades", "units", "unidades"],
  8: ["pares", "pairs", "pares"],
  9: ["docenas", "dozens", "dúzias"],
  10: ["quilates", "carats", "quilates"],
  11: ["millares", "thousands", "milheiros"],
  14: ["gramos", "grams", "gramas"],
  15: ["milímetros", "millimetres", "milímetros"],
  17: ["kilómetros", "kilometres", "quilômetros"],
  20: ["centímetros", "centimetres", "centímetros"],
  29: ["toneladas", "tonnes", "toneladas"],
  41: ["miligramos", "milligrams", "miligramas"],
  47: ["mililitros", "millilitres", "mililitros"],
  96: ["packs", "packs", "pacotes"],
  97: ["seña/anticipo", "deposit/advance", "sinal/adiantamento"],
  98: ["otras unidades", "other units", "outras unidades"],
  99: ["bonificación", "discount", "desconto"],
};

/**
 * An item's unit by the authority's code, given as text ("7" → "unidades"); a code the table
 * does not hold, or a unit already in words, is shown as it is.
 */
export function unidadExportacion(codigo: string | undefined, idioma: Idioma = "es"): string {
  if (codigo === undefined) return "";
  const nombres = /^\d+$/.test(codigo) ? UNIDADES[Number(codigo)] : undefined;
  return nombres ? nombres[INDICE[idioma]] : codigo;
}

const TIPOS_EXPORTACION: Readonly<Record<number, Nombres>> = {
  1: [
    "Exportación definitiva de bienes",
    "Definitive export of goods",
    "Exportação definitiva de bens",
  ],
  2: ["Servicios", "Services", "Serviços"],
  4: ["Otros", "Other", "Outros"],
};

/** What is exported (1 goods, 2 services, 4 other), by name; another code is shown as it is. */
export function tipoExportacion(codigo: number, idioma: Idioma = "es"): string {
  return TIPOS_EXPORTACION[codigo]?.[INDICE[idioma]] ?? String(codigo);
}
