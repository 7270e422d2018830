import { xmlChild, xmlList, xmlString, type XmlObject, type XmlValue } from "@pasarela/authority";
import type { padron } from "@pasarela/contracts";

/**
 * The registry's XML read into the contract's camelCase records, field by field: whatever the
 * authority leaves out is null (lists empty), and nothing it sends is trusted to be a number
 * or a date until read as one.
 */

type Domicilio = padron.Domicilio;
type Actividad = padron.Actividad;
/** The constancia as read, before the gateway derives anything from it. */
export type ConstanciaRecord = Omit<padron.Constancia, "condicionIvaReceptorId">;

const str = (parent: XmlValue | undefined, name: string): string | null => {
  const value = xmlString(parent, name)?.trim();
  return value === undefined || value === "" ? null : value;
};

const int = (parent: XmlValue | undefined, name: string): number | null => {
  const value = str(parent, name);
  return value !== null && /^-?\d{1,15}$/.test(value) ? Number(value) : null;
};

/** xs:dateTime → yyyy-mm-dd (the registry sends noon of the day); anything else is null. */
const date = (parent: XmlValue | undefined, name: string): string | null =>
  /^(\d{4}-\d{2}-\d{2})/.exec(str(parent, name) ?? "")?.[1] ?? null;

/** Repeated text children (`claveInactivaAsociada`, `idPersona`, `error`). */
function texts(parent: XmlValue | undefined, name: string): string[] {
  const value =
    parent !== undefined && typeof parent === "object" && !Array.isArray(parent)
      ? parent[name]
      : undefined;
  const items = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return items
    .filter((item): item is string => typeof item === "string")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

/** One address; A13 calls the postcode `codigoPostal`, A10 and the constancia `codPostal`. */
export function domicilio(d: XmlObject): Domicilio {
  return {
    tipoDomicilio: str(d, "tipoDomicilio"),
    direccion: str(d, "direccion"),
    calle: str(d, "calle"),
    numero: int(d, "numero"),
    piso: str(d, "piso"),
    oficinaDptoLocal: str(d, "oficinaDptoLocal"),
    manzana: str(d, "manzana"),
    sector: str(d, "sector"),
    torre: str(d, "torre"),
    localidad: str(d, "localidad"),
    codigoPostal: str(d, "codigoPostal") ?? str(d, "codPostal"),
    idProvincia: int(d, "idProvincia"),
    descripcionProvincia: str(d, "descripcionProvincia"),
    datoAdicional: str(d, "datoAdicional"),
    tipoDatoAdicional: str(d, "tipoDatoAdicional"),
    estadoDomicilio: str(d, "estadoDomicilio"),
  };
}

function actividad(a: XmlObject): Actividad | null {
  const id = int(a, "idActividad");
  return id === null
    ? null
    : {
        id,
        descripcion: str(a, "descripcionActividad"),
        orden: int(a, "orden"),
        periodo: int(a, "periodo"),
        nomenclador: int(a, "nomenclador"),
      };
}

const actividades = (parent: XmlValue | undefined): Actividad[] =>
  xmlList(parent, "actividad")
    .map(actividad)
    .filter((a): a is Actividad => a !== null);

/** A13 and A10 name the main activity in three loose fields. */
function actividadPrincipal(p: XmlObject): Actividad | null {
  const id = int(p, "idActividadPrincipal");
  return id === null
    ? null
    : {
        id,
        descripcion: str(p, "descripcionActividadPrincipal"),
        orden: 1,
        periodo: int(p, "periodoActividadPrincipal"),
        nomenclador: null,
      };
}

function documento(p: XmlObject): { tipo: string | null; numero: string } | null {
  const numero = str(p, "numeroDocumento");
  return numero === null ? null : { tipo: str(p, "tipoDocumento"), numero };
}

function identity(p: XmlObject, idPersona: string) {
  return {
    idPersona: str(p, "idPersona") ?? idPersona,
    tipoPersona: str(p, "tipoPersona"),
    tipoClave: str(p, "tipoClave"),
    estadoClave: str(p, "estadoClave"),
    apellido: str(p, "apellido"),
    nombre: str(p, "nombre"),
    razonSocial: str(p, "razonSocial"),
  };
}

/** A13's `personaReturn`; undefined when it holds no `persona`. */
export function personaA13(ret: XmlObject, idPersona: string): padron.PersonaA13 | undefined {
  const p = xmlChild(ret, "persona");
  if (!p) return undefined;
  return {
    ...identity(p, idPersona),
    documento: documento(p),
    fechaNacimiento: date(p, "fechaNacimiento"),
    fechaFallecimiento: date(p, "fechaFallecimiento"),
    fechaContratoSocial: date(p, "fechaContratoSocial"),
    formaJuridica: str(p, "formaJuridica"),
    mesCierre: int(p, "mesCierre"),
    clavesInactivasAsociadas: texts(p, "claveInactivaAsociada"),
    domicilios: xmlList(p, "domicilio").map(domicilio),
    actividadPrincipal: actividadPrincipal(p),
  };
}

function dependencia(
  parent: XmlValue | undefined,
): { id: number | null; descripcion: string | null } | null {
  const d = xmlChild(parent, "dependencia");
  return d ? { id: int(d, "idDependencia"), descripcion: str(d, "descripcionDependencia") } : null;
}

/** A10's `personaReturn`; undefined when it holds no `persona`. */
export function personaA10(ret: XmlObject, idPersona: string): padron.PersonaA10 | undefined {
  const p = xmlChild(ret, "persona");
  if (!p) return undefined;
  return {
    ...identity(p, idPersona),
    documento: documento(p),
    clavesInactivasAsociadas: texts(p, "claveInactivaAsociada"),
    dependencia: dependencia(p),
    domicilios: xmlList(p, "domicilio").map(domicilio),
    actividadPrincipal: actividadPrincipal(p),
  };
}

/** `idPersonaListReturn`: every key of the document, in the order sent. */
export const idPersonas = (ret: XmlObject | undefined): string[] => texts(ret, "idPersona");

function impuestos(parent: XmlValue | undefined) {
  return xmlList(parent, "impuesto").flatMap((i) => {
    const id = int(i, "idImpuesto");
    return id === null
      ? []
      : [{ id, descripcion: str(i, "descripcionImpuesto"), periodo: int(i, "periodo") }];
  });
}

function categoria(c: XmlObject | undefined) {
  return c
    ? {
        id: int(c, "idCategoria"),
        descripcion: str(c, "descripcionCategoria"),
        idImpuesto: int(c, "idImpuesto"),
        periodo: int(c, "periodo"),
      }
    : null;
}

function partialError(e: XmlObject | undefined) {
  return e ? { errores: texts(e, "error"), mensaje: str(e, "mensaje") } : null;
}

/**
 * The constancia (`personaReturn` of getPersona_v2): a block the registry leaves out is null,
 * its partial-data errors come through as data.
 */
export function constancia(ret: XmlObject, idPersona: string): ConstanciaRecord {
  const g = xmlChild(ret, "datosGenerales");
  const rg = xmlChild(ret, "datosRegimenGeneral");
  const mt = xmlChild(ret, "datosMonotributo");
  const ec = xmlChild(ret, "errorConstancia");
  const esSucesion = g ? str(g, "esSucesion") : null;
  const fiscal = g ? xmlChild(g, "domicilioFiscal") : undefined;
  const monotributista = mt ? xmlChild(mt, "actividadMonotributista") : undefined;
  return {
    idPersona: (g && str(g, "idPersona")) ?? (ec && str(ec, "idPersona")) ?? idPersona,
    datosGenerales: g
      ? {
          tipoPersona: str(g, "tipoPersona"),
          tipoClave: str(g, "tipoClave"),
          estadoClave: str(g, "estadoClave"),
          apellido: str(g, "apellido"),
          nombre: str(g, "nombre"),
          razonSocial: str(g, "razonSocial"),
          esSucesion: esSucesion === null ? null : /^S/i.test(esSucesion),
          mesCierre: int(g, "mesCierre"),
          fechaContratoSocial: date(g, "fechaContratoSocial"),
          fechaFallecimiento: date(g, "fechaFallecimiento"),
          domicilioFiscal: fiscal ? domicilio(fiscal) : null,
          dependencia: dependencia(g),
          caracterizaciones: xmlList(g, "caracterizacion").map((c) => ({
            id: int(c, "idCaracterizacion"),
            descripcion: str(c, "descripcionCaracterizacion"),
            periodo: int(c, "periodo"),
          })),
        }
      : null,
    regimenGeneral: rg
      ? {
          impuestos: impuestos(rg),
          actividades: actividades(rg),
          regimenes: xmlList(rg, "regimen").map((r) => ({
            id: int(r, "idRegimen"),
            idImpuesto: int(r, "idImpuesto"),
            descripcion: str(r, "descripcionRegimen"),
            tipo: str(r, "tipoRegimen"),
            periodo: int(r, "periodo"),
          })),
          categoriaAutonomo: categoria(xmlChild(rg, "categoriaAutonomo")),
        }
      : null,
    monotributo: mt
      ? {
          categoria: categoria(xmlChild(mt, "categoriaMonotributo")),
          impuestos: impuestos(mt),
          actividadMonotributista: monotributista ? actividad(monotributista) : null,
          actividades: actividades(mt),
        }
      : null,
    errorConstancia: ec ? { errores: texts(ec, "error") } : null,
    errorMonotributo: partialError(xmlChild(ret, "errorMonotributo")),
    errorRegimenGeneral: partialError(xmlChild(ret, "errorRegimenGeneral")),
  };
}
