import type { Actividad, Domicilio, Person } from "../state.js";
import type { JaxwsRecord } from "./render.js";

/**
 * A registry person as each service shows it. The taxes of the constancia come from the
 * person's VAT position, with the ids the gateway reads a VAT condition back from (30 IVA,
 * 32 exempt, 33 not registered, 34 outside VAT, 20 monotributo).
 */

const IMPUESTOS: Readonly<Record<number, string>> = {
  10: "GANANCIAS SOCIEDADES",
  11: "GANANCIAS PERSONAS FISICAS",
  20: "MONOTRIBUTO",
  30: "IVA",
  32: "IVA EXENTO",
  33: "IVA RESPONSABLE NO INSCRIPTO",
  34: "IVA NO ALCANZADO",
};
/** The period the simulator gives a tax it derives (the registry dates each one). */
const TAX_PERIOD = 201901;
/** The activity code book of the constancia: F-883, as recorded. */
const NOMENCLADOR = 883;

export const MENSAJE_MONOTRIBUTO = "No cumple con las condiciones para enviar datos monotributo";
export const MENSAJE_REGIMEN_GENERAL =
  "No cumple con las condiciones para enviar datos del regimen general";

/** yyyy-mm-dd as JAX-WS prints an xs:dateTime of the registry: noon, Argentina time. */
const dateTime = (date: string | undefined) =>
  date === undefined ? undefined : `${date}T12:00:00-03:00`;

const main = (p: Person): Actividad | undefined =>
  [...p.actividades].sort((a, b) => a.orden - b.orden)[0];

const names = (p: Person): JaxwsRecord =>
  p.tipoPersona === "JURIDICA"
    ? { razonSocial: p.razonSocial }
    : { apellido: p.apellido, nombre: p.nombre };

const tipoClave = (p: Person) => p.tipoClave ?? "CUIT";

/** A13's `persona`: identity, every address, the main activity. */
export function a13Persona(p: Person): JaxwsRecord {
  const activity = main(p);
  return {
    ...names(p),
    claveInactivaAsociada: p.clavesInactivas,
    descripcionActividadPrincipal: activity?.desc,
    domicilio: (p.domicilios ?? []).map((d): JaxwsRecord => ({
      calle: d.calle,
      codigoPostal: d.codigoPostal,
      datoAdicional: d.datoAdicional,
      descripcionProvincia: d.descripcionProvincia,
      direccion: d.direccion,
      estadoDomicilio: "CONFIRMADO",
      idProvincia: d.idProvincia,
      localidad: d.localidad,
      numero: d.numero,
      oficinaDptoLocal: d.oficinaDptoLocal,
      piso: d.piso,
      tipoDatoAdicional: d.tipoDatoAdicional,
      tipoDomicilio: d.tipoDomicilio,
    })),
    estadoClave: p.estadoClave,
    fechaContratoSocial: dateTime(p.fechaContratoSocial),
    fechaNacimiento: dateTime(p.fechaNacimiento),
    formaJuridica: p.formaJuridica,
    idActividadPrincipal: activity?.id,
    idPersona: p.cuit,
    mesCierre: p.mesCierre,
    numeroDocumento: p.documento?.numero,
    periodoActividadPrincipal: activity?.periodo,
    tipoClave: tipoClave(p),
    tipoDocumento: p.documento?.tipo,
    tipoPersona: p.tipoPersona,
  };
}

/** A10, A5: `codPostal` rather than A13's `codigoPostal`, and fewer parts. */
function shortDomicilio(d: Domicilio): JaxwsRecord {
  return {
    codPostal: d.codigoPostal,
    datoAdicional: d.datoAdicional,
    descripcionProvincia: d.descripcionProvincia,
    direccion: d.direccion,
    idProvincia: d.idProvincia,
    localidad: d.localidad,
    tipoDatoAdicional: d.tipoDatoAdicional,
    tipoDomicilio: d.tipoDomicilio,
  };
}

/** The tax office in charge, by province: the simulator's own, stable per person. */
function dependencia(p: Person): JaxwsRecord {
  const fiscal = (p.domicilios ?? []).find((d) => d.tipoDomicilio === "FISCAL");
  const id = 100 + (fiscal?.idProvincia ?? 0);
  return { descripcionDependencia: `AGENCIA SEDE ${id}`, idDependencia: id };
}

/** A10's `persona`. */
export function a10Persona(p: Person): JaxwsRecord {
  const activity = main(p);
  return {
    ...names(p),
    claveInactivaAsociada: p.clavesInactivas,
    dependencia: dependencia(p),
    descripcionActividadPrincipal: activity?.desc,
    domicilio: (p.domicilios ?? []).map(shortDomicilio),
    estadoClave: p.estadoClave,
    idActividadPrincipal: activity?.id,
    idPersona: p.cuit,
    numeroDocumento: p.documento?.numero,
    tipoClave: tipoClave(p),
    tipoDocumento: p.documento?.tipo,
    tipoPersona: p.tipoPersona,
  };
}

const impuesto = (id: number): JaxwsRecord => ({
  descripcionImpuesto: IMPUESTOS[id] ?? String(id),
  idImpuesto: id,
  periodo: TAX_PERIOD,
});

const actividad = (a: Actividad): JaxwsRecord => ({
  descripcionActividad: a.desc,
  idActividad: a.id,
  nomenclador: NOMENCLADOR,
  orden: a.orden,
  periodo: a.periodo ?? TAX_PERIOD,
});

/** The general regime's VAT tax of each position; monotributo and final consumers have none. */
const IVA_TAX: Readonly<Record<Person["condicionIva"], number | undefined>> = {
  responsable_inscripto: 30,
  exento: 32,
  no_inscripto: 33,
  no_alcanzado: 34,
  monotributo: undefined,
  consumidor_final: undefined,
};

function regimenGeneral(p: Person): JaxwsRecord | undefined {
  const iva = IVA_TAX[p.condicionIva];
  if (iva === undefined) return undefined;
  // income tax goes with VAT registration; exempt and non-taxable entities have only their VAT tax
  const ganancias =
    p.condicionIva === "responsable_inscripto" ? [p.tipoPersona === "JURIDICA" ? 10 : 11] : [];
  return {
    actividad: [...p.actividades].sort((a, b) => a.orden - b.orden).map(actividad),
    impuesto: [...ganancias, iva].sort((a, b) => a - b).map(impuesto),
  };
}

function monotributo(p: Person): JaxwsRecord | undefined {
  if (p.condicionIva !== "monotributo") return undefined;
  const activity = main(p);
  return {
    actividad: p.actividades.filter((a) => a !== activity).map(actividad),
    actividadMonotributista: activity === undefined ? undefined : actividad(activity),
    categoriaMonotributo:
      p.categoriaMonotributo === undefined
        ? undefined
        : { ...p.categoriaMonotributo, idImpuesto: 20 },
    impuesto: [impuesto(20)],
  };
}

/**
 * The constancia's parts for a person (`persona` of the list operations, `personaReturn`
 * without `metadata`). A person whose constancia is refused gets only `errorConstancia`; a
 * block the registry withholds is replaced by its error, with the recorded `mensaje`.
 */
export function constanciaParts(p: Person): JaxwsRecord {
  const errores = p.errores ?? {};
  if (errores.constancia !== undefined && errores.constancia.length > 0) {
    return {
      errorConstancia: {
        ...(p.tipoPersona === "FISICA" ? { apellido: p.apellido, nombre: p.nombre } : {}),
        error: errores.constancia,
        idPersona: p.cuit,
      },
    };
  }
  const fiscal = (p.domicilios ?? []).find((d) => d.tipoDomicilio === "FISCAL");
  const withheldMt = errores.monotributo !== undefined && errores.monotributo.length > 0;
  const withheldRg = errores.regimenGeneral !== undefined && errores.regimenGeneral.length > 0;
  return {
    datosGenerales: {
      ...names(p),
      domicilioFiscal: fiscal === undefined ? undefined : shortDomicilio(fiscal),
      esSucesion: p.tipoPersona === "FISICA" ? "NO" : undefined,
      estadoClave: p.estadoClave,
      fechaContratoSocial: dateTime(p.fechaContratoSocial),
      idPersona: p.cuit,
      mesCierre: p.mesCierre ?? 12,
      tipoClave: tipoClave(p),
      tipoPersona: p.tipoPersona,
    },
    datosMonotributo: withheldMt ? undefined : monotributo(p),
    datosRegimenGeneral: withheldRg ? undefined : regimenGeneral(p),
    errorMonotributo: withheldMt
      ? { error: errores.monotributo, mensaje: MENSAJE_MONOTRIBUTO }
      : undefined,
    errorRegimenGeneral: withheldRg
      ? { error: errores.regimenGeneral, mensaje: MENSAJE_REGIMEN_GENERAL }
      : undefined,
  };
}

/** `getPersonaList_v2` for an id the registry does not hold. */
export function unknownInList(idPersona: string): JaxwsRecord {
  return { errorConstancia: { error: ["No existe persona con ese Id"], idPersona } };
}
