import { z } from "zod";
import { CsrError, issueCertificate } from "../ca.js";
import { isValidCuit } from "../cuit.js";
import {
  CONDICIONES_PADRON,
  EMISION_TIPOS,
  ENVIRONMENTS,
  FAULT_MODES,
  FAULT_SERVICES,
  WSN_SERVICES,
  resetWorld,
} from "../state.js";
import type { Environment, Person } from "../state.js";
import type { World } from "../world.js";
import { caeaReport, domesticSeries, exportSeries } from "./vouchers.js";

export interface ControlResponse {
  status: number;
  body: unknown;
}

const cuit = z
  .string()
  .regex(/^\d{11}$/, "cuit must be 11 digits")
  .refine(isValidCuit, "cuit has an invalid check digit");

const yyyymm = z.number().int().min(190001).max(299912);
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be yyyy-mm-dd");
const text = (max: number) => z.string().min(1).max(max);
const domicilio = z
  .object({
    tipoDomicilio: z.enum(["FISCAL", "LEGAL/REAL"]).default("FISCAL"),
    direccion: text(200),
    calle: text(200).optional(),
    numero: z.number().int().min(0).max(999_999).optional(),
    piso: text(20).optional(),
    oficinaDptoLocal: text(20).optional(),
    localidad: text(200).optional(),
    codigoPostal: text(10),
    idProvincia: z.number().int().min(0).max(24),
    descripcionProvincia: text(100),
    datoAdicional: text(200).optional(),
    tipoDatoAdicional: text(50).optional(),
  })
  .strict();

const schemas = {
  cert: z.object({ csr: z.string().min(1) }),
  delegation: z.object({ cuit, alias: z.string().min(1), service: z.enum(WSN_SERVICES) }),
  pos: z.object({
    cuit,
    ptoVta: z.number().int().min(1).max(99998),
    service: z.enum(["wsfe", "wsfex"]).default("wsfe"),
    bloqueado: z.boolean().optional(),
    fchBaja: z
      .string()
      .regex(/^\d{8}$/, "fchBaja must be yyyymmdd")
      .optional(),
    emisionTipo: z.enum(EMISION_TIPOS).optional(),
  }),
  fault: z.object({
    service: z.enum(FAULT_SERVICES),
    mode: z.enum(FAULT_MODES),
    rate: z.number().min(0).max(1).default(1),
    latencyMs: z.number().int().min(0).max(600_000).default(0),
    latencyMaxMs: z.number().int().min(0).max(600_000).optional(),
    operation: z.string().min(1).max(100).optional(),
    latencyOperation: z.string().min(1).max(100).optional(),
    mix: z
      .array(z.object({ mode: z.enum(FAULT_MODES), rate: z.number().min(0).max(1) }))
      .max(FAULT_MODES.length)
      .optional(),
  }),
  settings: z.object({
    enforceSingleTa: z.boolean().optional(),
    clockOffsetMs: z.number().int().optional(),
  }),
  cotizacion: z.object({ monId: z.string().min(1).max(3), cotiz: z.number().positive() }),
  person: z
    .object({
      cuit,
      /** Derived from the prefix when absent: 30, 33 and 34 are companies. */
      tipoPersona: z.enum(["FISICA", "JURIDICA"]).optional(),
      razonSocial: z.string().min(1).max(200).optional(),
      apellido: z.string().min(1).max(200).optional(),
      nombre: z.string().min(1).max(200).optional(),
      estadoClave: z.enum(["ACTIVO", "INACTIVO"]).default("ACTIVO"),
      condicionIva: z.enum(CONDICIONES_PADRON),
      actividades: z
        .array(
          z
            .object({
              id: z.number().int().positive(),
              desc: z.string().min(1).max(300),
              periodo: yyyymm.optional(),
            })
            .strict(),
        )
        .max(100)
        .refine((a) => new Set(a.map((x) => x.id)).size === a.length, "repeated activity id")
        .default([]),
      tipoClave: z.enum(["CUIT", "CUIL", "CDI"]).optional(),
      documento: z
        .object({
          tipo: z.string().min(1).max(20).default("DNI"),
          numero: z
            .string()
            .regex(/^\d{1,11}$/, "documento.numero must be digits")
            .transform((d) => d.replace(/^0+(?=\d)/, "")),
        })
        .strict()
        .optional(),
      fechaNacimiento: isoDate.optional(),
      fechaContratoSocial: isoDate.optional(),
      formaJuridica: z.string().min(1).max(200).optional(),
      mesCierre: z.number().int().min(1).max(12).optional(),
      domicilios: z.array(domicilio).max(20).optional(),
      categoriaMonotributo: z
        .object({
          idCategoria: z.number().int().min(1).max(99),
          descripcionCategoria: z.string().min(1).max(200),
          periodo: yyyymm,
        })
        .strict()
        .optional(),
      clavesInactivas: z.array(cuit).max(20).optional(),
      errores: z
        .object({
          constancia: z.array(z.string().min(1).max(500)).max(10).optional(),
          monotributo: z.array(z.string().min(1).max(500)).max(10).optional(),
          regimenGeneral: z.array(z.string().min(1).max(500)).max(10).optional(),
        })
        .strict()
        .optional(),
    })
    .strict()
    .refine((p) => p.categoriaMonotributo === undefined || p.condicionIva === "monotributo", {
      message: "categoriaMonotributo: only a monotributista has a category",
      path: ["categoriaMonotributo"],
    }),
  personRef: z.object({ cuit }).strict(),
  permit: z.object({
    idPermiso: z.string().min(1),
    dstMerc: z.number().int(),
    status: z.enum(["OK", "NO"]),
  }),
};

const ok = { status: 200, body: { ok: true } } as const;

/** A registry person from the control API's input; activities are numbered in the order given. */
function toPerson(input: z.infer<typeof schemas.person>): Person | string {
  const tipoPersona = input.tipoPersona ?? (/^3[034]/.test(input.cuit) ? "JURIDICA" : "FISICA");
  if (tipoPersona === "JURIDICA" && input.razonSocial === undefined) {
    return "razonSocial: required for a JURIDICA person";
  }
  if (tipoPersona === "FISICA" && input.apellido === undefined) {
    return "apellido: required for a FISICA person";
  }
  const { razonSocial, apellido, nombre, actividades, ...rest } = input;
  return {
    ...rest,
    tipoPersona,
    ...(tipoPersona === "JURIDICA"
      ? { razonSocial }
      : { apellido, ...(nombre === undefined ? {} : { nombre }) }),
    actividades: actividades.map((a, i) => ({ ...a, orden: i + 1 })),
  };
}

function bad(error: z.ZodError): ControlResponse {
  const issue = error.issues[0];
  const where = issue === undefined ? "" : issue.path.join(".");
  return {
    status: 400,
    body: { error: `${where === "" ? "" : `${where}: `}${issue?.message ?? "invalid"}` },
  };
}

/**
 * The JSON control API under /_control; `worlds` holds one World per environment, `tlsCa` the
 * CA of the HTTPS port (undefined when the simulator serves plain HTTP only).
 */
export function handleControl(
  method: string,
  path: string,
  body: unknown,
  worlds: Readonly<Record<Environment, World>>,
  tlsCa: string | undefined,
): ControlResponse {
  if (path === "/_control/health") return ok;
  if (path === "/_control/tls-ca" && method === "GET") {
    return tlsCa === undefined
      ? { status: 404, body: { error: "the simulator does not serve HTTPS (SIM_HTTPS_PORT)" } }
      : { status: 200, body: { certificate: tlsCa } };
  }
  const m = /^\/_control\/([^/]+)\/([^/]+)(?:\/([^/]+))?$/.exec(path);
  if (m === null) return { status: 404, body: { error: `no control route ${path}` } };
  const envName = m[1] ?? "";
  if (!(ENVIRONMENTS as readonly string[]).includes(envName)) {
    return { status: 404, body: { error: `unknown environment ${envName}` } };
  }
  const world = worlds[envName as Environment];
  const state = world.state;
  const route = `${method} ${m[2] ?? ""}`;
  // the only route with a third segment: GET caeas/<cuit>
  if (m[3] !== undefined) {
    if (route !== "GET caeas") {
      return { status: 404, body: { error: `no control route ${method} ${path}` } };
    }
    const c = cuit.safeParse(m[3]);
    return c.success ? { status: 200, body: caeaReport(state, c.data) } : bad(c.error);
  }
  switch (route) {
    case "GET ca":
      return { status: 200, body: { certificate: state.ca.certPem } };
    case "GET stats": {
      const total = Object.values(state.stats.requests).reduce((a, b) => a + b, 0);
      return { status: 200, body: { ...state.stats, total } };
    }
    case "GET vouchers":
      return { status: 200, body: { series: domesticSeries(state) } };
    case "GET export-vouchers":
      return { status: 200, body: { series: exportSeries(state) } };
    case "POST cert": {
      const p = schemas.cert.safeParse(body);
      if (!p.success) return bad(p.error);
      try {
        return {
          status: 200,
          body: { certificate: issueCertificate(world.ca, p.data.csr, world.now()) },
        };
      } catch (error) {
        if (error instanceof CsrError) return { status: 400, body: { error: error.message } };
        throw error;
      }
    }
    case "POST delegations": {
      const p = schemas.delegation.safeParse(body);
      if (!p.success) return bad(p.error);
      const d = p.data;
      if (
        !state.delegations.some(
          (x) => x.cuit === d.cuit && x.alias === d.alias && x.service === d.service,
        )
      ) {
        state.delegations.push(d);
        world.commit();
      }
      return ok;
    }
    case "DELETE delegations": {
      // Withdrawn at once: the next login no longer gets it; a TA already issued keeps the
      // relations it was issued with (its token carries them).
      const p = schemas.delegation.safeParse(body);
      if (!p.success) return bad(p.error);
      const d = p.data;
      const kept = state.delegations.filter(
        (x) => !(x.cuit === d.cuit && x.alias === d.alias && x.service === d.service),
      );
      const removed = kept.length !== state.delegations.length;
      if (removed) {
        state.delegations = kept;
        world.commit();
      }
      return { status: 200, body: { ok: true, removed } };
    }
    case "POST pos": {
      const p = schemas.pos.safeParse(body);
      if (!p.success) return bad(p.error);
      const d = p.data;
      // declaring a point again sets its state: blocked and withdrawal date as given
      const kept = state.pointsOfSale.filter(
        (x) => !(x.cuit === d.cuit && x.ptoVta === d.ptoVta && x.service === d.service),
      );
      state.pointsOfSale = [...kept, d];
      world.commit();
      return ok;
    }
    case "POST faults": {
      const p = schemas.fault.safeParse(body);
      if (!p.success) return bad(p.error);
      const total = (p.data.mix ?? []).reduce((sum, m) => sum + m.rate, p.data.rate);
      if (p.data.mix !== undefined && total > 1 + 1e-9) {
        return { status: 400, body: { error: "mix: rate and the mix's rates add up to over 1" } };
      }
      state.faults[p.data.service] = {
        mode: p.data.mode,
        rate: p.data.rate,
        latencyMs: p.data.latencyMs,
        ...(p.data.latencyMaxMs === undefined ? {} : { latencyMaxMs: p.data.latencyMaxMs }),
        ...(p.data.operation === undefined ? {} : { operation: p.data.operation }),
        ...(p.data.latencyOperation === undefined
          ? {}
          : { latencyOperation: p.data.latencyOperation }),
        ...(p.data.mix === undefined ? {} : { mix: p.data.mix }),
      };
      world.commit();
      return ok;
    }
    case "POST settings": {
      const p = schemas.settings.safeParse(body);
      if (!p.success) return bad(p.error);
      if (p.data.enforceSingleTa !== undefined) {
        state.settings.enforceSingleTa = p.data.enforceSingleTa;
      }
      if (p.data.clockOffsetMs !== undefined) state.settings.clockOffsetMs = p.data.clockOffsetMs;
      world.commit();
      return ok;
    }
    case "POST forget-tas":
      state.tas = {};
      world.commit();
      return ok;
    case "POST cotizaciones": {
      const p = schemas.cotizacion.safeParse(body);
      if (!p.success) return bad(p.error);
      state.cotizaciones[p.data.monId] = p.data.cotiz;
      world.commit();
      return ok;
    }
    case "POST persons": {
      const p = schemas.person.safeParse(body);
      if (!p.success) return bad(p.error);
      const person = toPerson(p.data);
      if (typeof person === "string") return { status: 400, body: { error: person } };
      state.persons[person.cuit] = person;
      world.commit();
      return ok;
    }
    case "DELETE persons": {
      const p = schemas.personRef.safeParse(body);
      if (!p.success) return bad(p.error);
      const removed = state.persons[p.data.cuit] !== undefined;
      if (removed) {
        const { [p.data.cuit]: _gone, ...kept } = state.persons;
        state.persons = kept;
        world.commit();
      }
      return { status: 200, body: { ok: true, removed } };
    }
    case "POST permits": {
      const p = schemas.permit.safeParse(body);
      if (!p.success) return bad(p.error);
      const key = `${p.data.idPermiso}|${p.data.dstMerc}`;
      state.deniedPermits = state.deniedPermits.filter((k) => k !== key);
      if (p.data.status === "NO") state.deniedPermits.push(key);
      world.commit();
      return ok;
    }
    case "POST reset":
      resetWorld(state);
      world.commit();
      return ok;
    default:
      return { status: 404, body: { error: `no control route ${method} ${path}` } };
  }
}
