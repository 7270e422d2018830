import { makeControlClient, type ControlClient } from "@pasarela/authority-sim";
import postgres from "postgres";
import {
  newAccount,
  register,
  scratch,
  type Account,
  type Registered,
  type Scratch,
} from "./operator.js";
import { startE2EStack, type E2EStack } from "./stack.js";

const environment = "homologacion" as const;

type HeldVoucher = Awaited<
  ReturnType<ControlClient["vouchers"]>
>["series"][string]["vouchers"][number];

/** One row of wsfe's vouchers table, as the exactly-once checks read it. */
export interface StoredVoucher {
  cbte_nro: string;
  state: string;
  cae: string | null;
  idempotency_key: string;
}

/**
 * A stack with two wsfe processes and one account ("Emisora") whose representada issues
 * facturas C through WSFEv1 in homologación, on the given points of sale; the simulator's
 * control API and wsfe's tables at hand, to check each voucher against the authority's.
 */
export interface WsfeIssuerStack {
  readonly stack: E2EStack;
  readonly dir: Scratch;
  readonly control: ControlClient;
  readonly sql: postgres.Sql;
  readonly account: Account;
  readonly issuer: Registered;
  /** The body of a factura C to a final consumer: one item of `total`, `extra` on top. */
  facturaC(
    ptoVta: number,
    total: string | number,
    extra?: Record<string, unknown>,
    descripcion?: string,
  ): Record<string, unknown>;
  /** POST to the edge with the account's read_write key, and an Idempotency-Key when given. */
  post(path: string, body: unknown, key?: string, signal?: AbortSignal): Promise<Response>;
  /** The vouchers the simulator holds on a series (cbteTipo 11) of the issuer. */
  atAuthority(ptoVta: number): Promise<HeldVoucher[]>;
  /** The gateway's vouchers of a series (cbteTipo 11) of the issuer, by number. */
  stored(ptoVta: number): Promise<StoredVoucher[]>;
  /** The wsfe process of a series' writer (`wsfe@host:pid:random`). */
  writerPid(owner: string): number;
  /** The pids of both wsfe processes now. */
  wsfePids(): (number | undefined)[];
  /** Clears the simulator's faults, then stops everything. */
  close(): Promise<void>;
}

export async function startWsfeIssuerStack(options: {
  /** variables for every service process (timeouts, log level) */
  env: Record<string, string>;
  /** the points of sale enabled for WSFEv1 */
  pos: readonly number[];
}): Promise<WsfeIssuerStack> {
  let stack: E2EStack | undefined;
  let dir: Scratch | undefined;
  let control: ControlClient | undefined;
  let sql: postgres.Sql | undefined;
  const close = async () => {
    await control?.setFault(environment, { service: "wsfe", mode: "none" }).catch(() => undefined);
    await sql?.end({ timeout: 2 });
    await stack?.teardown();
    dir?.remove();
  };
  try {
    stack = await startE2EStack({ env: options.env, replicas: { wsfe: 2 } });
    dir = scratch();
    control = makeControlClient(stack.simulatorUrl!);
    sql = postgres(stack.env.DATABASE_URL!, { max: 2, onnotice: () => {} });
    const account = await newAccount(stack, "Emisora");
    const issuer = await register(stack, dir, {
      accountId: account.accountId,
      environment,
      delegate: ["wsfe"],
      pos: options.pos.map((ptoVta) => ({ ptoVta, service: "wsfe" as const })),
    });
    return started(stack, dir, control, sql, account, issuer, close);
  } catch (error) {
    await close();
    throw error;
  }
}

function started(
  stack: E2EStack,
  dir: Scratch,
  control: ControlClient,
  sql: postgres.Sql,
  account: Account,
  issuer: Registered,
  close: () => Promise<void>,
): WsfeIssuerStack {
  return {
    stack,
    dir,
    control,
    sql,
    account,
    issuer,
    facturaC: (ptoVta, total, extra = {}, descripcion = "Servicio") => ({
      environment,
      representada: issuer.cuit,
      ptoVta,
      cbteTipo: 11,
      concepto: 1,
      docTipo: 99,
      docNro: "0",
      condicionIvaReceptorId: 5,
      items: [{ descripcion, cantidad: 1, precioUnitario: total, alicuotaIva: 0 }],
      ...extra,
    }),
    post: (path, body, key, signal) =>
      fetch(`${stack.edgeUrl}${path}`, {
        method: "POST",
        headers: {
          authorization: account.rw,
          "content-type": "application/json",
          ...(key ? { "idempotency-key": key } : {}),
        },
        body: JSON.stringify(body),
        ...(signal ? { signal } : {}),
      }),
    atAuthority: async (ptoVta) =>
      (await control.vouchers(environment)).series[`${issuer.cuit}|${ptoVta}|11`]?.vouchers ?? [],
    stored: (ptoVta) =>
      sql<StoredVoucher[]>`
        select cbte_nro, state, cae, idempotency_key from wsfe.comprobantes
        where cuit = ${issuer.cuit} and pto_vta = ${ptoVta} and cbte_tipo = 11
        order by cbte_nro, created_at`,
    writerPid: (owner) => Number(owner.split(":")[1]),
    wsfePids: () => [stack.pid("wsfe"), stack.pid("wsfe-2")],
    close,
  };
}
