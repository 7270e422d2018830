/** What the simulated registry knows of a person: activities, addresses, taxes, partial errors. */

/** The VAT position the constancia de inscripción derives from a person's taxes. */
export const CONDICIONES_PADRON = [
  "responsable_inscripto",
  "monotributo",
  "exento",
  "no_inscripto",
  "no_alcanzado",
  "consumidor_final",
] as const;
export type CondicionPadron = (typeof CONDICIONES_PADRON)[number];

export interface Actividad {
  /** The activity code (nomenclador F-883), as FEParamGetActividades lists it. */
  id: number;
  /** 1 is the main activity. */
  orden: number;
  desc: string;
  /** yyyymm the activity started; the registry services print it as `periodo`. */
  periodo?: number;
}

/** An address of the registry (A13 holds every one; A10 and the constancia a subset). */
export interface Domicilio {
  /** FISCAL, or LEGAL/REAL */
  tipoDomicilio: string;
  /** street and number in one line, as the registry prints it */
  direccion: string;
  calle?: string;
  numero?: number;
  piso?: string;
  oficinaDptoLocal?: string;
  localidad?: string;
  codigoPostal: string;
  /** the authority's province code: 0 is CABA */
  idProvincia: number;
  descripcionProvincia: string;
  datoAdicional?: string;
  tipoDatoAdicional?: string;
}

/** The monotributo category of a monotributista (constancia `categoriaMonotributo`). */
export interface CategoriaMonotributo {
  idCategoria: number;
  descripcionCategoria: string;
  /** yyyymm since when it holds */
  periodo: number;
}

/**
 * Partial-data errors the constancia reports inside a normal answer:
 * `constancia` replaces the whole record, `monotributo` and `regimenGeneral` the block.
 */
export interface PartialErrors {
  constancia?: string[];
  monotributo?: string[];
  regimenGeneral?: string[];
}

/**
 * One person of the authority's registry (padrón), keyed by CUIT/CUIL. WSFEv1 reads it for the
 * receiver checks (10015, 10017, 10063, 10217, 10238, 10247) and the issuer's activities; the
 * registry services (A13, A10, constancia) answer from the same record. `condicionIva` is the
 * VAT position the taxes the constancia shows are drawn from.
 */
export interface Person {
  cuit: string;
  tipoPersona: "FISICA" | "JURIDICA";
  /** JURIDICA: the company name. */
  razonSocial?: string;
  /** FISICA: surname and given names. */
  apellido?: string;
  nombre?: string;
  estadoClave: "ACTIVO" | "INACTIVO";
  condicionIva: CondicionPadron;
  actividades: Actividad[];
  /** CUIT unless said otherwise (a CUIL: an employee with no taxes of their own). */
  tipoClave?: "CUIT" | "CUIL" | "CDI";
  /** FISICA: the identity document behind the key (A13 getIdPersonaListByDocumento). */
  documento?: { tipo: string; numero: string };
  /** yyyy-mm-dd */
  fechaNacimiento?: string;
  /** JURIDICA: yyyy-mm-dd */
  fechaContratoSocial?: string;
  formaJuridica?: string;
  mesCierre?: number;
  domicilios?: Domicilio[];
  categoriaMonotributo?: CategoriaMonotributo;
  /** earlier keys of the same person, now inactive (`claveInactivaAsociada`) */
  clavesInactivas?: string[];
  errores?: PartialErrors;
}
