import { isValidCuit } from "../cuit.js";
import {
  JAXWS_CONTENT_TYPE,
  clientFault,
  jaxwsEnvelope,
  jaxwsFault,
  validationFault,
  type JaxwsFault,
} from "../soap/jaxws.js";
import type { XmlElement } from "../soap/xml.js";
import type { PadronService, Person } from "../state.js";
import { arIsoMillis } from "../time.js";
import { checkToken } from "../token.js";
import type { HandlerResult, World } from "../world.js";
import { a10Persona, a13Persona, constanciaParts, unknownInList } from "./persona.js";
import { renderFields, type JaxwsRecord } from "./render.js";
import type { JaxwsServiceSpec } from "./schema.js";

/** The most ids one `getPersonaList` takes. */
const MAX_LIST = 250;

/** Faultstrings of the authority, as recorded; the rest are the simulator's words. */
export const PADRON_MESSAGES = {
  noToken: "Falta token y/o sign.",
  malformed: "Token malformado",
  badPair: "No autorizado, par token/sign invalido.",
  noRepresentada: "Debe enviar la CUIT representada",
  notFound: "No existe persona con ese Id",
  invalidId: "El Id de la persona no es valido",
  inactive: "La clave (CUIT/CUIL) consultada se encuentra INACTIVA",
  database: "Error interno: no se pudo consultar la base de datos del padron",
} as const;

/** Raised while handling a request: answered as the fault it carries. */
class Fault extends Error {
  constructor(readonly fault: JaxwsFault) {
    super(fault.message);
  }
}

const fault = (f: JaxwsFault): never => {
  throw new Fault(f);
};

interface Call {
  readonly world: World;
  readonly spec: JaxwsServiceSpec;
  /** the operation's children by name, all unqualified */
  readonly params: ReadonlyMap<string, readonly string[]>;
  readonly now: number;
}

/**
 * JAXB refuses what the operation does not declare, a namespace on a child included: unlike
 * ASMX, which ignores such elements, the request fails as a whole.
 */
function readParams(spec: JaxwsServiceSpec, op: string, body: XmlElement): Map<string, string[]> {
  const declared = spec.operations[op]?.input ?? [];
  const params = new Map<string, string[]>();
  for (const c of body.children) {
    if (c.ns !== "" || !declared.some(([name]) => name === c.name)) {
      const expected = declared.map(([name]) => `<{}${name}>`).join(",");
      fault(
        clientFault(
          `Unmarshalling Error: unexpected element (uri:"${c.ns}", local:"${c.name}"). Expected elements are ${expected}`,
        ),
      );
    }
    params.set(c.name, [...(params.get(c.name) ?? []), c.text.trim()]);
  }
  return params;
}

/** An xs:long as JAXB reads it: anything but digits fails the whole request. */
function long(text: string): string {
  if (!/^[+]?\d{1,19}$/.test(text))
    fault(clientFault(`Unmarshalling Error: Not a number: ${text}`));
  return text.replace(/^\+/, "").replace(/^0+(?=\d)/, "");
}

const first = (call: Call, name: string): string | undefined => call.params.get(name)?.[0];

/** token, sign and cuitRepresentada, checked as the registry does; answers the represented CUIT. */
function authenticate(call: Call): string {
  const token = first(call, "token") ?? "";
  const sign = first(call, "sign") ?? "";
  if (token === "" || sign === "") fault(validationFault(PADRON_MESSAGES.noToken));
  const raw = first(call, "cuitRepresentada") ?? "";
  if (raw === "") fault(validationFault(PADRON_MESSAGES.noRepresentada));
  const cuit = long(raw);
  const check = checkToken({
    token,
    sign,
    secret: call.world.state.tokenSecret,
    service: call.spec.service,
    cuit,
    nowMs: call.now,
  });
  if (check.ok) return cuit;
  if (check.kind === "relations") {
    fault(validationFault(`Este token no le permite actuar en representacion de la CUIT ${cuit}`));
  }
  if (/formato invalido/.test(check.message)) fault(validationFault(PADRON_MESSAGES.malformed));
  if (/firma no corresponde/.test(check.message)) {
    // the registry quotes both back: a caller must never log this text
    fault(
      validationFault(`No se pudo verificar que ${sign} contenga una firma valida de ${token}`),
    );
  }
  // dates and the service id: a pair this service does not take
  return fault(validationFault(PADRON_MESSAGES.badPair));
}

/** The id of the person asked for, valid as a key, or the registry's refusal. */
function idPersona(text: string): string {
  const id = long(text);
  if (!isValidCuit(id)) fault(validationFault(PADRON_MESSAGES.invalidId));
  return id;
}

function metadata(call: Call): JaxwsRecord {
  return {
    fechaHora: arIsoMillis(call.now),
    servidor: call.world.environment === "homologacion" ? "setiwsh2" : "setiwsp2",
  };
}

/** A person the registry answers for by id; A13 and A10 do not show inactive keys. */
function person(call: Call, showsInactive: boolean): Person {
  const id = idPersona(first(call, "idPersona") ?? "");
  const found = call.world.state.persons[id];
  if (found === undefined) return fault(validationFault(PADRON_MESSAGES.notFound));
  if (!showsInactive && found.estadoClave === "INACTIVO") {
    return fault(validationFault(PADRON_MESSAGES.inactive));
  }
  return found;
}

/** Every key registered for one identity document, inactive ones included. */
function idsByDocumento(call: Call): string[] {
  const text = first(call, "documento") ?? "";
  if (!/^\d{1,11}$/.test(text)) {
    fault(validationFault("El documento informado no es valido"));
  }
  const documento = text.replace(/^0+(?=\d)/, "");
  return Object.values(call.world.state.persons)
    .filter((p) => p.documento !== undefined && p.documento.numero === documento)
    .map((p) => p.cuit)
    .sort();
}

function personaList(call: Call): JaxwsRecord[] {
  const ids = call.params.get("idPersona") ?? [];
  if (ids.length === 0) fault(validationFault(PADRON_MESSAGES.invalidId));
  if (ids.length > MAX_LIST) {
    fault(
      validationFault(
        `La cantidad de personas consultadas supera el maximo permitido (${MAX_LIST})`,
      ),
    );
  }
  return ids.map((text) => {
    const id = long(text);
    if (!isValidCuit(id))
      return { errorConstancia: { error: [PADRON_MESSAGES.invalidId], idPersona: id } };
    const found = call.world.state.persons[id];
    return found === undefined ? unknownInList(id) : constanciaParts(found);
  });
}

type Operation = (call: Call) => JaxwsRecord;

const DUMMY_OK: Operation = () => ({
  return: { appserver: "OK", authserver: "OK", dbserver: "OK" },
});

const constanciaSingle: Operation = (call) => {
  authenticate(call);
  return { personaReturn: { ...constanciaParts(person(call, true)), metadata: metadata(call) } };
};
const constanciaList: Operation = (call) => {
  authenticate(call);
  return { personaListReturn: { metadata: metadata(call), persona: personaList(call) } };
};

const OPERATIONS: Readonly<Record<PadronService, Readonly<Record<string, Operation>>>> = {
  ws_sr_padron_a13: {
    dummy: DUMMY_OK,
    getPersona: (call) => {
      authenticate(call);
      return {
        personaReturn: { metadata: metadata(call), persona: a13Persona(person(call, false)) },
      };
    },
    getIdPersonaListByDocumento: (call) => {
      authenticate(call);
      return { idPersonaListReturn: { idPersona: idsByDocumento(call), metadata: metadata(call) } };
    },
  },
  ws_sr_padron_a10: {
    dummy: DUMMY_OK,
    getPersona: (call) => {
      authenticate(call);
      return {
        personaReturn: { metadata: metadata(call), persona: a10Persona(person(call, false)) },
      };
    },
  },
  ws_sr_constancia_inscripcion: {
    dummy: DUMMY_OK,
    getPersona: constanciaSingle,
    getPersona_v2: constanciaSingle,
    getPersonaList: constanciaList,
    getPersonaList_v2: constanciaList,
  },
};

function rendered(spec: JaxwsServiceSpec, op: string, value: JaxwsRecord): HandlerResult {
  const output = spec.operations[op]?.output;
  if (output === undefined) throw new Error(`${spec.serviceName}: no operation ${op}`);
  const [name, type] = output;
  const inner = value[name];
  const body =
    inner === undefined
      ? ""
      : `<${name}>${renderFields(spec, type, inner as JaxwsRecord)}</${name}>`;
  return { status: 200, contentType: JAXWS_CONTENT_TYPE, body: jaxwsEnvelope(spec.ns, op, body) };
}

export function padronFaultResult(spec: JaxwsServiceSpec, f: JaxwsFault): HandlerResult {
  return { status: 500, contentType: JAXWS_CONTENT_TYPE, body: jaxwsFault(spec.ns, f) };
}

/** Runs one operation of a registry service on an already routed request. */
export function runPadron(
  world: World,
  spec: JaxwsServiceSpec,
  op: string,
  body: XmlElement,
): HandlerResult {
  const operation = OPERATIONS[spec.service][op];
  if (operation === undefined) throw new Error(`${spec.serviceName}: no handler for ${op}`);
  try {
    const call: Call = { world, spec, params: readParams(spec, op, body), now: world.now() };
    return rendered(spec, op, operation(call));
  } catch (error) {
    if (error instanceof Fault) return padronFaultResult(spec, error.fault);
    throw error;
  }
}

/** Fault mode error-501: `dummy` reports the database down, every other operation faults. */
export function padronDatabaseDown(spec: JaxwsServiceSpec, op: string): HandlerResult {
  if (op === "dummy") {
    return rendered(spec, op, {
      return: { appserver: "OK", authserver: "OK", dbserver: "ERROR" },
    });
  }
  return padronFaultResult(spec, { code: "Server", message: PADRON_MESSAGES.database });
}
