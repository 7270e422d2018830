import type { Domicilio, Person } from "../state.js";

/**
 * The version of the seed below: a state file written before it grew gets the persons it
 * lacks when loaded (state.ts `upgrade`), without touching the ones it has.
 */
export const REGISTRY_SEED = 2;

const caba = (direccion: string, codigoPostal: string, extra: Partial<Domicilio> = {}) => ({
  tipoDomicilio: "FISCAL",
  direccion,
  localidad: "CIUDAD AUTONOMA BUENOS AIRES",
  codigoPostal,
  idProvincia: 0,
  descripcionProvincia: "CIUDAD AUTONOMA BUENOS AIRES",
  ...extra,
});

const SOFTWARE = { id: 620100, orden: 1, desc: "SERVICIOS DE CONSULTORES EN INFORMATICA" };

/**
 * The registry a fresh world starts with, the same in both environments: one person of each
 * kind the gateway tells apart, so every path can be tried without registering anyone.
 *
 * - 30000000007 is the receiver of a recorded real FECAESolicitar request,
 *   authorized as a Factura A in homologation: a VAT-registered active company;
 * - 33693450239 is AFIP itself, which the real homologation registry answers for;
 * - 20111111112 is the issuer the walkthrough and the simulator's own tests represent: a
 *   VAT-registered individual with two activities, so FEParamGetActividades and
 *   FEXGetPARAM_Actividades answer for it (added in seed version 2);
 * - responsables inscriptos (a company with two addresses, an individual), a monotributista,
 *   an exempt foundation, an association outside VAT, an individual not registered in VAT, a
 *   final consumer (a CUIL, no taxes);
 * - DNI 25111222 has two keys: 20251112224, inactive, and 27251112229, the active one that
 *   names it in `claveInactivaAsociada`;
 * - partial data: a company whose general regime the constancia withholds (the recorded
 *   "baja de oficio" error), a monotributista without a category (the recorded error), and a
 *   company whose constancia is refused as a whole (`errorConstancia`).
 *
 * Names and addresses are the simulator's.
 */
export function seededPersons(): Record<string, Person> {
  const persons: Person[] = [
    {
      cuit: "30000000007",
      tipoPersona: "JURIDICA",
      razonSocial: "EMPRESA DE PRUEBA S.A.",
      formaJuridica: "SOCIEDAD ANONIMA",
      fechaContratoSocial: "1995-03-01",
      mesCierre: 12,
      estadoClave: "ACTIVO",
      condicionIva: "responsable_inscripto",
      actividades: [],
      domicilios: [
        caba("AV CORRIENTES 1234 Piso:5 Dpto:A", "1043", {
          calle: "AV CORRIENTES",
          numero: 1234,
          piso: "5",
          oficinaDptoLocal: "A",
        }),
      ],
    },
    {
      cuit: "33693450239",
      tipoPersona: "JURIDICA",
      razonSocial: "ADMINISTRACION FEDERAL DE INGRESOS PUBLICOS",
      formaJuridica: "ORGANISMO PUBLICO",
      mesCierre: 12,
      estadoClave: "ACTIVO",
      condicionIva: "exento",
      actividades: [
        { id: 841100, orden: 1, desc: "SERVICIOS GENERALES DE LA ADMINISTRACION PUBLICA" },
      ],
      domicilios: [
        caba("HIPOLITO YRIGOYEN 370", "1086", { calle: "HIPOLITO YRIGOYEN", numero: 370 }),
      ],
    },
    {
      cuit: "20111111112",
      tipoPersona: "FISICA",
      apellido: "FERNANDEZ",
      nombre: "LUCIA",
      documento: { tipo: "DNI", numero: "11111111" },
      fechaNacimiento: "1980-04-12",
      estadoClave: "ACTIVO",
      condicionIva: "responsable_inscripto",
      actividades: [
        { ...SOFTWARE, periodo: 201501 },
        { id: 702092, orden: 2, desc: "SERVICIOS DE ASESORAMIENTO EMPRESARIAL", periodo: 201803 },
      ],
      domicilios: [
        caba("AV DE MAYO 1370 Piso:3", "1085", { calle: "AV DE MAYO", numero: 1370, piso: "3" }),
      ],
    },
    {
      cuit: "30712345671",
      tipoPersona: "JURIDICA",
      razonSocial: "DISTRIBUIDORA DEL PLATA S.R.L.",
      formaJuridica: "SOC. RESPONSABILIDAD LIMITADA",
      fechaContratoSocial: "2012-06-15",
      mesCierre: 6,
      estadoClave: "ACTIVO",
      condicionIva: "responsable_inscripto",
      actividades: [
        {
          id: 463100,
          orden: 1,
          desc: "VENTA AL POR MAYOR DE PRODUCTOS ALIMENTICIOS",
          periodo: 201207,
        },
        {
          id: 492280,
          orden: 2,
          desc: "SERVICIO DE TRANSPORTE AUTOMOTOR DE CARGAS",
          periodo: 201501,
        },
      ],
      domicilios: [
        {
          tipoDomicilio: "FISCAL",
          direccion: "SAN MARTIN 455",
          calle: "SAN MARTIN",
          numero: 455,
          localidad: "ROSARIO",
          codigoPostal: "2000",
          idProvincia: 12,
          descripcionProvincia: "SANTA FE",
        },
        {
          tipoDomicilio: "LEGAL/REAL",
          direccion: "RUTA 9 KM 290",
          localidad: "FUNES",
          codigoPostal: "2132",
          idProvincia: 12,
          descripcionProvincia: "SANTA FE",
          datoAdicional: "DEPOSITO 3",
          tipoDatoAdicional: "OTROS",
        },
      ],
    },
    {
      cuit: "20172543597",
      tipoPersona: "FISICA",
      apellido: "PEREZ",
      nombre: "JUAN CARLOS",
      documento: { tipo: "DNI", numero: "17254359" },
      fechaNacimiento: "1965-09-21",
      estadoClave: "ACTIVO",
      condicionIva: "responsable_inscripto",
      actividades: [{ ...SOFTWARE, periodo: 200901 }],
      domicilios: [
        {
          tipoDomicilio: "FISCAL",
          direccion: "BV SAN JUAN 870",
          calle: "BV SAN JUAN",
          numero: 870,
          localidad: "CORDOBA",
          codigoPostal: "5000",
          idProvincia: 3,
          descripcionProvincia: "CORDOBA",
        },
      ],
    },
    {
      cuit: "27283334444",
      tipoPersona: "FISICA",
      apellido: "GOMEZ",
      nombre: "ANA MARIA",
      documento: { tipo: "DNI", numero: "28333444" },
      fechaNacimiento: "1980-02-11",
      estadoClave: "ACTIVO",
      condicionIva: "monotributo",
      categoriaMonotributo: {
        idCategoria: 4,
        descripcionCategoria: "D LOCACIONES DE SERVICIOS",
        periodo: 202402,
      },
      actividades: [{ id: 960201, orden: 1, desc: "SERVICIOS DE PELUQUERIA", periodo: 201803 }],
      domicilios: [
        {
          tipoDomicilio: "FISCAL",
          direccion: "COLON 1520",
          calle: "COLON",
          numero: 1520,
          localidad: "MENDOZA",
          codigoPostal: "5500",
          idProvincia: 7,
          descripcionProvincia: "MENDOZA",
        },
      ],
    },
    {
      cuit: "30709998885",
      tipoPersona: "JURIDICA",
      razonSocial: "FUNDACION AYUDAR",
      formaJuridica: "FUNDACION",
      fechaContratoSocial: "2003-04-02",
      mesCierre: 12,
      estadoClave: "ACTIVO",
      condicionIva: "exento",
      actividades: [{ id: 889000, orden: 1, desc: "SERVICIOS SOCIALES SIN ALOJAMIENTO N.C.P." }],
      domicilios: [caba("AV RIVADAVIA 6100", "1406", { calle: "AV RIVADAVIA", numero: 6100 })],
    },
    {
      cuit: "30715556665",
      tipoPersona: "JURIDICA",
      razonSocial: "ASOCIACION CIVIL CLUB BARRIAL",
      formaJuridica: "ASOCIACION CIVIL",
      mesCierre: 3,
      estadoClave: "ACTIVO",
      condicionIva: "no_alcanzado",
      actividades: [{ id: 931010, orden: 1, desc: "SERVICIOS DE ORGANIZACIONES DEPORTIVAS" }],
      domicilios: [
        {
          tipoDomicilio: "FISCAL",
          direccion: "ALSINA 230",
          calle: "ALSINA",
          numero: 230,
          localidad: "QUILMES",
          codigoPostal: "1878",
          idProvincia: 1,
          descripcionProvincia: "BUENOS AIRES",
        },
      ],
    },
    {
      cuit: "23224445555",
      tipoPersona: "FISICA",
      apellido: "FERNANDEZ",
      nombre: "LUCIA",
      documento: { tipo: "DNI", numero: "22444555" },
      estadoClave: "ACTIVO",
      condicionIva: "no_inscripto",
      actividades: [],
      domicilios: [caba("PERU 1010", "1068")],
    },
    {
      cuit: "20312223334",
      tipoPersona: "FISICA",
      tipoClave: "CUIL",
      apellido: "RODRIGUEZ",
      nombre: "MARTIN",
      documento: { tipo: "DNI", numero: "31222333" },
      fechaNacimiento: "1985-07-30",
      estadoClave: "ACTIVO",
      condicionIva: "consumidor_final",
      actividades: [],
      domicilios: [caba("MEXICO 2200", "1222")],
    },
    {
      cuit: "20251112224",
      tipoPersona: "FISICA",
      apellido: "LOPEZ",
      nombre: "CARLA",
      documento: { tipo: "DNI", numero: "25111222" },
      estadoClave: "INACTIVO",
      condicionIva: "monotributo",
      actividades: [],
      domicilios: [caba("TUCUMAN 540", "1049")],
    },
    {
      cuit: "27251112229",
      tipoPersona: "FISICA",
      apellido: "LOPEZ",
      nombre: "CARLA",
      documento: { tipo: "DNI", numero: "25111222" },
      fechaNacimiento: "1976-05-04",
      estadoClave: "ACTIVO",
      condicionIva: "monotributo",
      categoriaMonotributo: {
        idCategoria: 2,
        descripcionCategoria: "B VENTA DE COSAS MUEBLES",
        periodo: 202307,
      },
      actividades: [{ id: 477190, orden: 1, desc: "VENTA AL POR MENOR DE PRENDAS DE VESTIR" }],
      clavesInactivas: ["20251112224"],
      domicilios: [caba("TUCUMAN 540", "1049", { calle: "TUCUMAN", numero: 540 })],
    },
    {
      cuit: "30717778886",
      tipoPersona: "JURIDICA",
      razonSocial: "TRANSPORTES DEL SUR S.A.",
      formaJuridica: "SOCIEDAD ANONIMA",
      mesCierre: 12,
      estadoClave: "ACTIVO",
      condicionIva: "responsable_inscripto",
      actividades: [{ id: 492280, orden: 1, desc: "SERVICIO DE TRANSPORTE AUTOMOTOR DE CARGAS" }],
      domicilios: [
        {
          tipoDomicilio: "FISCAL",
          direccion: "AV ROCA 1800",
          localidad: "NEUQUEN",
          codigoPostal: "8300",
          idProvincia: 20,
          descripcionProvincia: "NEUQUEN",
        },
      ],
      errores: {
        regimenGeneral: [
          "El contribuyente cuenta con impuestos con baja de oficio por Decreto 1299/98",
        ],
      },
    },
    {
      cuit: "20387776665",
      tipoPersona: "FISICA",
      apellido: "SOSA",
      nombre: "PABLO",
      documento: { tipo: "DNI", numero: "38777666" },
      estadoClave: "ACTIVO",
      condicionIva: "monotributo",
      actividades: [{ id: 749009, orden: 1, desc: "ACTIVIDADES PROFESIONALES N.C.P." }],
      domicilios: [caba("BOLIVAR 300", "1066")],
      errores: { monotributo: ["Datos de monotributo incompletos- no posee categoría"] },
    },
    {
      cuit: "30714443336",
      tipoPersona: "JURIDICA",
      razonSocial: "CONSTRUCTORA NORTE S.A.",
      estadoClave: "ACTIVO",
      condicionIva: "responsable_inscripto",
      actividades: [{ id: 410011, orden: 1, desc: "CONSTRUCCION DE EDIFICIOS RESIDENCIALES" }],
      domicilios: [],
      errores: {
        constancia: ["La CUIT no tiene constituido el domicilio fiscal electronico"],
      },
    },
  ];
  return Object.fromEntries(persons.map((p) => [p.cuit, p]));
}
