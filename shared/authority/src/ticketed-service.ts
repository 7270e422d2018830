import type { Environment, WebService } from "@pasarela/contracts";
import { fail, type Result } from "@pasarela/errors";
import type { AccessTicket, AccessTicketCache } from "./access-ticket-cache.js";
import { makeAsmxClient, type AsmxClient } from "./asmx-client.js";
import { classifyAsmxErr, type AsmxErr, type AsmxErrCodes } from "./asmx-errors.js";
import { withAccessTicket, type TicketedAttempt } from "./ticketed-call.js";
import { describeTransportFailure } from "./transport-failure.js";
import type { XmlObject } from "./xml-reader.js";

/** Who a call to a ticketed service is for. */
export interface TicketedCaller {
  readonly accountId: string;
  /** the represented CUIT */
  readonly cuit: string;
  readonly environment: Environment;
  /** the API call's deadline (HandlerContext.deadline): the ticket and the call end before it */
  readonly deadline?: number | undefined;
}

/** What an attempt has at hand: the environment's client, the TA and the time it may take. */
export interface TicketedCall<C> {
  readonly client: C;
  readonly ticket: AccessTicket;
  /** what is left of the deadline for this call, when there is one */
  readonly timeoutMs: number | undefined;
}

/**
 * A service of the authority that takes an access ticket (WSFE, WSFEX, the registry): one
 * client per environment, and calls made with the cached TA of `service`, of which the
 * authority gets one fresh TA when it refuses the first (`withAccessTicket`).
 */
export interface TicketedService<C> {
  readonly service: WebService;
  readonly clients: Readonly<Record<Environment, C>>;
  run: <T>(
    caller: TicketedCaller,
    attempt: (call: TicketedCall<C>) => Promise<TicketedAttempt<T>>,
  ) => Promise<Result<T>>;
}

export function makeTicketedService<C>(config: {
  /** the web service the TAs are for */
  readonly service: WebService;
  readonly tickets: AccessTicketCache;
  /** the client of one environment; made once per environment */
  readonly client: (environment: Environment) => C;
}): TicketedService<C> {
  const { service, tickets } = config;
  const clients: Record<Environment, C> = {
    homologacion: config.client("homologacion"),
    produccion: config.client("produccion"),
  };
  return {
    service,
    clients,
    run(caller, attempt) {
      const { accountId, cuit, environment, deadline } = caller;
      return withAccessTicket(
        tickets,
        { accountId, cuit, environment, service, deadline },
        (ticket, timeoutMs) => attempt({ client: clients[environment], ticket, timeoutMs }),
      );
    },
  };
}

/** One operation of an ASMX service, as its adapter spells it. */
export interface AsmxOperation<T> {
  readonly operation: string;
  /** the operation's children, credentials included, in WSDL order */
  readonly body: (ticket: AccessTicket) => string;
  /**
   * The value of a good answer, or undefined when there is none: then the error the answer
   * carries (`err`) is classified. `read` may make a value of an error (no data: an empty list).
   */
  readonly read: (result: XmlObject, err: AsmxErr | undefined) => Result<T> | undefined;
  /** the point of sale the operation is about, to word a refusal */
  readonly ptoVta?: number | undefined;
}

export interface AsmxService extends TicketedService<AsmxClient> {
  /**
   * One operation with the cached TA: transport failures are the service's 502s; an error in
   * the answer is classified by the service's codes unless `read` makes a value of it.
   */
  call: <T>(caller: TicketedCaller, operation: AsmxOperation<T>) => Promise<Result<T>>;
}

/** A ticketed ASMX service (WSFEv1, WSFEXv1): what sets one apart is configured here. */
export function makeAsmxService(config: {
  readonly codes: AsmxErrCodes;
  /** target namespace of the service, with its trailing slash */
  readonly namespace: string;
  /** the error an answer carries, if any (WSFEv1 `Errors/Err`, WSFEXv1 `FEXErr`) */
  readonly errorOf: (result: XmlObject) => AsmxErr | undefined;
  readonly urls: Readonly<Record<Environment, string>>;
  readonly timeoutMs: number;
  readonly tickets: AccessTicketCache;
  /** injectable for tests; by default the shared keep-alive transport */
  readonly fetch?: typeof fetch | undefined;
}): AsmxService {
  const { codes } = config;
  const label = codes.service.toUpperCase();
  const ticketed = makeTicketedService({
    service: codes.service,
    tickets: config.tickets,
    client: (environment) =>
      makeAsmxClient({
        endpoint: config.urls[environment],
        namespace: config.namespace,
        service: codes.service,
        environment,
        timeoutMs: config.timeoutMs,
        ...(config.fetch ? { fetch: config.fetch } : {}),
      }),
  });
  return {
    ...ticketed,
    call(caller, { operation, body, read, ptoVta }) {
      return ticketed.run(caller, async ({ client, ticket, timeoutMs }) => {
        const outcome = await client.call(operation, body(ticket), timeoutMs);
        if (!outcome.ok) {
          return { kind: "done", result: fail(describeTransportFailure(label, outcome.failure)) };
        }
        const err = config.errorOf(outcome.result);
        const value = read(outcome.result, err);
        if (value !== undefined) return { kind: "done", result: value };
        return classifyAsmxErr(codes, err ?? { code: -1, message: "respuesta sin resultado" }, {
          cuit: caller.cuit,
          environment: caller.environment,
          ptoVta,
          token: ticket.token,
        });
      });
    },
  };
}
