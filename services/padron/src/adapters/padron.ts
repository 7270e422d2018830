import {
  describeTransportFailure,
  makeTicketedService,
  tokenIssuer,
  type AccessTicket,
  type AccessTicketCache,
  type SoapFailure,
  type TicketedAttempt,
  type TicketedService,
  type XmlObject,
} from "@pasarela/authority";
import type { Environment, padron, WebService } from "@pasarela/contracts";
import {
  authorityUnavailable,
  certificateEnvironmentMismatch,
  fail,
  invalidField,
  ok,
  personaInactiva,
  personaNotFound,
  representadaNotDelegated,
  type AppError,
  type Result,
} from "@pasarela/errors";
import {
  jaxwsParams,
  makeJaxwsClient,
  type JaxwsClient,
  type JaxwsClientOptions,
  type JaxwsOutcome,
} from "./jaxws-client.js";
import {
  constancia,
  idPersonas,
  personaA10,
  personaA13,
  type ConstanciaRecord,
} from "./records.js";

/** The three registry services: their WSAA id, namespace and how the gateway names them. */
export const REGISTRY = {
  a13: {
    service: "ws_sr_padron_a13",
    ns: "http://a13.soap.ws.server.puc.sr/",
    label: "Padrón A13",
  },
  a10: {
    service: "ws_sr_padron_a10",
    ns: "http://a10.soap.ws.server.puc.sr/",
    label: "Padrón A10",
  },
  constancia: {
    service: "ws_sr_constancia_inscripcion",
    ns: "http://a5.soap.ws.server.puc.sr/",
    label: "Constancia de inscripción",
  },
} as const satisfies Record<string, { service: WebService; ns: string; label: string }>;
export type Registry = keyof typeof REGISTRY;

export interface PadronCaller {
  readonly accountId: string;
  /** the represented CUIT (`cuitRepresentada`) */
  readonly cuit: string;
  readonly environment: Environment;
  /** the API call's deadline (HandlerContext.deadline) */
  readonly deadline?: number | undefined;
}

export interface PadronAdapter {
  /** A13 getPersona. */
  a13: (caller: PadronCaller, idPersona: string) => Promise<Result<padron.PersonaA13>>;
  /** A13 getIdPersonaListByDocumento: none is an empty list. */
  documento: (caller: PadronCaller, documento: string) => Promise<Result<string[]>>;
  /** A10 getPersona. */
  a10: (caller: PadronCaller, idPersona: string) => Promise<Result<padron.PersonaA10>>;
  /** Constancia getPersona_v2, partial-data errors included as data. */
  constancia: (caller: PadronCaller, idPersona: string) => Promise<Result<ConstanciaRecord>>;
}

/** Who a call was for, to word a refusal and to tell a stale ticket from a mix-up. */
export interface FaultContext {
  readonly registry: Registry;
  readonly cuit: string;
  readonly environment: Environment;
  /** the person asked for, when the operation takes one */
  readonly idPersona?: string | undefined;
  /** the TA the call carried: its token names the WSAA that issued it, and is never quoted */
  readonly ticket?: Pick<AccessTicket, "token" | "sign"> | undefined;
}

/**
 * The registry quotes the token and sign back in some faults: they are
 * credentials, so they are cut out of anything the gateway answers or logs.
 */
export function redact(message: string, ticket: FaultContext["ticket"]): string {
  let out = message;
  for (const [secret, mark] of [
    [ticket?.token, "<token>"],
    [ticket?.sign, "<sign>"],
  ] as const) {
    if (secret && secret.trim() !== "") out = out.split(secret.trim()).join(mark);
  }
  return out;
}

const TOKEN_PROBLEM = /token|sign\b|firma valida/i;

/**
 * The registry's faults, classified here and nowhere else, in this order:
 * - "Este token no le permite actuar en representacion de la CUIT …": the represented
 *   taxpayer did not delegate the service → 403 REPRESENTADA_NOT_DELEGATED;
 * - "No existe persona con ese Id" (or "… consultada es inexistente") → 404;
 * - "… se encuentra INACTIVA" → 404 PERSONA_INACTIVA;
 * - "El Id de la persona no es valido" → 400 naming idPersona (the gateway's own check is
 *   the check digit; the registry may know more);
 * - a refused token or sign: a signature that does not verify on a token of the other
 *   environment's WSAA is the test/production mix-up (403); any other is a ticket the
 *   registry no longer honours: one fresh TA, then 502;
 * - anything else, and every transport failure: the authority's side, 502.
 * The service's own delegation (coe.notAuthorized) never gets here: WSAA refuses the login.
 */
export function classifyPadronFailure<T>(
  outcome: { readonly failure: SoapFailure; readonly validation: boolean },
  context: FaultContext,
): TicketedAttempt<T> {
  const { registry, cuit, environment, idPersona, ticket } = context;
  const { service, label } = REGISTRY[registry];
  const done = (error: AppError): TicketedAttempt<T> => ({ kind: "done", result: fail(error) });
  const { failure } = outcome;
  if (failure.kind !== "fault") return done(describeTransportFailure(label, failure));
  const message = redact(failure.message, ticket);
  if (/representacion de la CUIT/i.test(message)) {
    return done(representadaNotDelegated(cuit, service, environment, message));
  }
  if (/No existe persona|consultada es inexistente/i.test(message)) {
    return done(personaNotFound(idPersona ?? "", service));
  }
  if (/INACTIVA/i.test(message)) return done(personaInactiva(idPersona ?? "", service, message));
  if (/Id de la persona no es valido/i.test(message)) {
    return done(
      invalidField(
        "idPersona",
        `no es una clave que el padrón acepte (la AFIP respondió: ${message})`,
      ),
    );
  }
  if (TOKEN_PROBLEM.test(message)) {
    const issuer = ticket === undefined ? "unknown" : tokenIssuer(ticket.token);
    if (
      /firma valida|verificar/i.test(message) &&
      issuer !== environment &&
      (issuer === "homologacion" || issuer === "produccion")
    ) {
      return done(certificateEnvironmentMismatch(environment, { code: failure.code, message }));
    }
    return {
      kind: "stale-ticket",
      error: authorityUnavailable(`${label} rechazó el ticket de acceso: ${message}`, {
        authorityCode: failure.code,
      }),
    };
  }
  return done(describeTransportFailure(label, { ...failure, message }));
}

const unreadable = (registry: Registry, what: string): AppError =>
  describeTransportFailure(REGISTRY[registry].label, { kind: "unreadable", message: what });

export function makePadronAdapter(deps: {
  urls: Readonly<Record<Registry, Readonly<Record<Environment, string>>>>;
  timeoutMs: number;
  tickets: AccessTicketCache;
  /** injectable for tests; by default the shared keep-alive transport */
  post?: JaxwsClientOptions["post"];
}): PadronAdapter {
  const registry = (name: Registry): TicketedService<JaxwsClient> =>
    makeTicketedService({
      service: REGISTRY[name].service,
      tickets: deps.tickets,
      client: (environment) =>
        makeJaxwsClient({
          endpoint: deps.urls[name][environment],
          namespace: REGISTRY[name].ns,
          service: REGISTRY[name].service,
          environment,
          timeoutMs: deps.timeoutMs,
          ...(deps.post ? { post: deps.post } : {}),
        }),
    });
  const registries: Record<Registry, TicketedService<JaxwsClient>> = {
    a13: registry("a13"),
    a10: registry("a10"),
    constancia: registry("constancia"),
  };

  /**
   * One operation with the cached TA of the registry's own service; `read` turns a good
   * answer into the value, or says (undefined) it is a failure to classify; `onFault` may
   * answer a fault itself (a documento with no keys).
   */
  function run<T>(
    caller: PadronCaller,
    registry: Registry,
    operation: string,
    params: readonly (readonly [string, string])[],
    read: (response: XmlObject) => Result<T>,
    options: {
      idPersona?: string;
      onFault?: (outcome: JaxwsOutcome) => Result<T> | undefined;
    } = {},
  ): Promise<Result<T>> {
    const { cuit, environment } = caller;
    return registries[registry].run(
      caller,
      async ({ client, ticket, timeoutMs }): Promise<TicketedAttempt<T>> => {
        const inner = jaxwsParams([
          ["token", ticket.token],
          ["sign", ticket.sign],
          ["cuitRepresentada", cuit],
          ...params,
        ]);
        const outcome = await client.call(operation, inner, timeoutMs);
        if (outcome.ok) return { kind: "done", result: read(outcome.response) };
        const answered = options.onFault?.(outcome);
        if (answered !== undefined) return { kind: "done", result: answered };
        return classifyPadronFailure<T>(outcome, {
          registry,
          cuit,
          environment,
          idPersona: options.idPersona,
          ticket,
        });
      },
    );
  }

  const personaReturn = (response: XmlObject): XmlObject | undefined => {
    const value = response.personaReturn;
    return typeof value === "object" && !Array.isArray(value) ? value : undefined;
  };

  return {
    a13(caller, idPersona) {
      return run(
        caller,
        "a13",
        "getPersona",
        [["idPersona", idPersona]],
        (response) => {
          const ret = personaReturn(response);
          const persona = ret && personaA13(ret, idPersona);
          return persona ? ok(persona) : fail(unreadable("a13", "getPersona sin persona"));
        },
        { idPersona },
      );
    },
    documento(caller, documento) {
      return run(
        caller,
        "a13",
        "getIdPersonaListByDocumento",
        [["documento", documento]],
        (response) => {
          const ret = response.idPersonaListReturn;
          return ok(typeof ret === "object" && !Array.isArray(ret) ? idPersonas(ret) : []);
        },
        {
          // a document nobody holds is an answer, not a failure
          onFault: (outcome) =>
            !outcome.ok &&
            outcome.failure.kind === "fault" &&
            /No existe persona|inexistente/i.test(outcome.failure.message)
              ? ok([])
              : undefined,
        },
      );
    },
    a10(caller, idPersona) {
      return run(
        caller,
        "a10",
        "getPersona",
        [["idPersona", idPersona]],
        (response) => {
          const ret = personaReturn(response);
          const persona = ret && personaA10(ret, idPersona);
          return persona ? ok(persona) : fail(unreadable("a10", "getPersona sin persona"));
        },
        { idPersona },
      );
    },
    constancia(caller, idPersona) {
      return run(
        caller,
        "constancia",
        "getPersona_v2",
        [["idPersona", idPersona]],
        (response) => {
          const ret = personaReturn(response);
          if (!ret) return fail(unreadable("constancia", "getPersona_v2 sin personaReturn"));
          const record = constancia(ret, idPersona);
          // an unknown id may come as a fault or, as in the list operations, as a record
          // holding only this error (which one is not known for sure): the same 404 either way
          const unknown =
            record.datosGenerales === null &&
            record.errorConstancia?.errores.some((e) => /No existe persona/i.test(e)) === true;
          return unknown
            ? fail(personaNotFound(idPersona, REGISTRY.constancia.service))
            : ok(record);
        },
        { idPersona },
      );
    },
  };
}
