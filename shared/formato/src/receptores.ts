/**
 * Who a voucher is for: document types and VAT conditions by name (the authority's
 * FEParamGetTiposDoc and FEParamGetCondicionIvaReceptor), and numbers written as people do.
 */

const TIPOS_DOCUMENTO: Readonly<Record<number, string>> = {
  80: "CUIT",
  86: "CUIL",
  87: "CDI",
  89: "LE",
  90: "LC",
  91: "CI Extranjera",
  92: "En trámite",
  93: "Acta Nacimiento",
  94: "Pasaporte",
  95: "CI Bs. As. RNP",
  96: "DNI",
  99: "Doc. (Otro)",
};

/** A document type as the authority's table names it ("CUIT", "DNI", "Doc. (Otro)"…). */
export const tipoDocumento = (docTipo: number): string =>
  TIPOS_DOCUMENTO[docTipo] ?? `Doc. tipo ${docTipo}`;

/** The authority's document type of an unidentified final consumer. */
export const SIN_IDENTIFICAR = 99;

/** CUIT, CUIL and CDI: eleven digits written 30-00000000-7. */
const CLAVES = new Set([80, 86, 87]);
/** DNI, LE and LC: a number written with thousands dots, 30.123.456. */
const NUMERADOS = new Set([89, 90, 96]);

/** A document's number as people write it for its type. */
export function numeroDocumento(docTipo: number, docNro: string): string {
  if (CLAVES.has(docTipo) && /^\d{11}$/.test(docNro)) {
    return `${docNro.slice(0, 2)}-${docNro.slice(2, 10)}-${docNro.slice(10)}`;
  }
  if (NUMERADOS.has(docTipo) && /^\d+$/.test(docNro)) {
    return String(Number(docNro)).replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  }
  return docNro;
}

/**
 * A document by type and number: "DNI 30.123.456", "CUIT 30-00000000-7"; the unidentified final
 * consumer (99, number 0) is "Consumidor final", with no number.
 */
export function documento(docTipo: number, docNro: string): string {
  if (docTipo === SIN_IDENTIFICAR) {
    return /^0*$/.test(docNro) ? "Consumidor final" : `Consumidor final, doc. ${docNro}`;
  }
  return `${tipoDocumento(docTipo)} ${numeroDocumento(docTipo, docNro)}`;
}

/** A receiver: the customer's name when known, then the document ("Ana Pérez · DNI 30.123.456"). */
export function receptor(r: {
  docTipo: number;
  docNro: string;
  razonSocial?: string | null | undefined;
}): string {
  const nombre = r.razonSocial?.trim();
  const doc = documento(r.docTipo, r.docNro);
  return nombre ? `${nombre} · ${doc}` : doc;
}

const CONDICIONES_IVA: Readonly<Record<number, string>> = {
  1: "IVA Responsable Inscripto",
  4: "IVA Sujeto Exento",
  5: "Consumidor Final",
  6: "Responsable Monotributo",
  7: "Sujeto No Categorizado",
  8: "Proveedor del Exterior",
  9: "Cliente del Exterior",
  10: "IVA Liberado – Ley N° 19.640",
  13: "Monotributista Social",
  15: "IVA No Alcanzado",
  16: "Monotributo Trabajador Independiente Promovido",
};

/** The VAT condition "Consumidor Final" of the authority's table. */
export const CONSUMIDOR_FINAL = 5;

/** A receiver's VAT condition by name ("Responsable Monotributo"), else "Condición N". */
export const condicionIva = (id: number): string => CONDICIONES_IVA[id] ?? `Condición ${id}`;

/**
 * The VAT conditions an issuer can be in, by name, from the authority's table (those of a
 * final consumer or of someone abroad are a receiver's only): the choices of an issuer profile.
 */
export const CONDICIONES_IVA_EMISOR: readonly string[] = [1, 6, 4, 13, 16, 15, 10].map(
  (id) => CONDICIONES_IVA[id]!,
);
