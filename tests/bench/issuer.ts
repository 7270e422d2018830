// The issuer every benchmark registers on its stack, as the operator CLI does it over the bus,
// and the calls it measures: straight to the simulator (a bare SOAP loop with the access ticket
// the gateway uses, the ceiling) and through the gateway's API.
import { httpPost } from "@pasarela/authority";
import type { ControlClient } from "@pasarela/authority-sim";
import type { Bus } from "@pasarela/bus";
import { billing, ticket, type NatsIdentity } from "@pasarela/contracts";

export const must = <T>(
  result: { ok: true; value: T } | { ok: false; error: { message: string } },
): T => {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
};

/** An account issuing in homologación through one representada, and what its loops need. */
export interface BenchIssuer {
  accountId: string;
  cuit: string;
  /** a read-only key's secret (queries) */
  readSecret: string;
  /** a read-write key's secret (issuance) */
  writeSecret: string;
  /** the access ticket wsfe holds for the representada: the bare loops sign with it */
  ta: { token: string; sign: string };
  /** the stack's simulator's WSFEv1 (homologación) */
  wsfeUrl: string;
}

/**
 * Registers `cuit` for a new account: keys, the representada (default point of sale the first
 * of `ptoVtas`), its certificate from the simulator's CA, the wsfe delegation and every point of
 * sale enabled; then asks the access ticket as wsfe asks it (the run's one WSAA login).
 */
export async function registerIssuer(
  stack: {
    /** a bus connection as `identity`: the operator CLI's `admin`, or a service's own */
    connect(identity: NatsIdentity): Promise<Bus>;
    simulatorUrl: string;
  },
  control: ControlClient,
  options: { cuit: string; alias: string; ptoVtas: readonly number[] },
): Promise<BenchIssuer> {
  const { cuit, alias, ptoVtas } = options;
  const bus = await stack.connect("admin");
  const { accountId } = must(await bus.request(billing.accountCreate, { name: alias }));
  const read = must(await bus.request(billing.keyCreate, { accountId, scope: "read_only" }));
  const write = must(await bus.request(billing.keyCreate, { accountId, scope: "read_write" }));
  const representada = must(
    await bus.request(ticket.representadaCreate, {
      accountId,
      cuit,
      environment: "homologacion",
      alias,
      ptoVta: ptoVtas[0]!,
    }),
  );
  const certificate = await control.issueCertificate("homologacion", representada.csr);
  must(
    await bus.request(ticket.certificateCreate, {
      representadaId: representada.representadaId,
      certificate,
    }),
  );
  await control.delegate("homologacion", { cuit, alias, service: "wsfe" });
  for (const ptoVta of ptoVtas) {
    await control.enablePointOfSale("homologacion", { cuit, ptoVta });
  }
  const wsfeBus = await stack.connect("wsfe");
  const ta = must(
    await wsfeBus.request(
      ticket.accessGet,
      { cuit, environment: "homologacion", service: "wsfe" },
      { accountId },
    ),
  );
  return {
    accountId,
    cuit,
    readSecret: read.secret,
    writeSecret: write.secret,
    ta: { token: ta.token, sign: ta.sign },
    wsfeUrl: `${stack.simulatorUrl}/homologacion/wsfev1/service.asmx`,
  };
}

/** One WSFEv1 operation sent straight to the simulator, signed with the issuer's ticket. */
export function soapCaller(
  issuer: BenchIssuer,
): (operation: string, inner: string) => Promise<string> {
  return async (operation, inner) => {
    const answer = await httpPost(
      issuer.wsfeUrl,
      {
        "content-type": "text/xml; charset=utf-8",
        soapaction: `"http://ar.gov.afip.dif.FEV1/${operation}"`,
      },
      `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">` +
        `<soap:Body><${operation} xmlns="http://ar.gov.afip.dif.FEV1/"><Auth><Token>${issuer.ta.token}</Token>` +
        `<Sign>${issuer.ta.sign}</Sign><Cuit>${issuer.cuit}</Cuit></Auth>${inner}</${operation}></soap:Body></soap:Envelope>`,
      10_000,
    );
    return answer.status === 200 ? answer.text : "";
  };
}

/** Today's date in Argentina (UTC−3) as the authority writes it: YYYYMMDD. */
export const argentinaToday = () =>
  new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 10).replaceAll("-", "");

/**
 * What any issuer must send per voucher, without the gateway: the last number, then the
 * voucher (a Factura C to a final consumer) numbered after it.
 */
export function bareIssuance(issuer: BenchIssuer, ptoVta: number, cbteTipo: number) {
  const soap = soapCaller(issuer);
  return async (): Promise<boolean> => {
    const last = /<CbteNro>(\d+)<\/CbteNro>/.exec(
      await soap(
        "FECompUltimoAutorizado",
        `<PtoVta>${ptoVta}</PtoVta><CbteTipo>${cbteTipo}</CbteTipo>`,
      ),
    );
    if (!last) return false;
    const nro = Number(last[1]) + 1;
    const answer = await soap(
      "FECAESolicitar",
      `<FeCAEReq><FeCabReq><CantReg>1</CantReg><PtoVta>${ptoVta}</PtoVta><CbteTipo>${cbteTipo}</CbteTipo></FeCabReq>` +
        `<FeDetReq><FECAEDetRequest><Concepto>1</Concepto><DocTipo>99</DocTipo><DocNro>0</DocNro>` +
        `<CbteDesde>${nro}</CbteDesde><CbteHasta>${nro}</CbteHasta><CbteFch>${argentinaToday()}</CbteFch>` +
        `<ImpTotal>1210.50</ImpTotal><ImpTotConc>0.00</ImpTotConc><ImpNeto>1210.50</ImpNeto><ImpOpEx>0.00</ImpOpEx>` +
        `<ImpTrib>0.00</ImpTrib><ImpIVA>0.00</ImpIVA><MonId>PES</MonId><MonCotiz>1</MonCotiz>` +
        `<CondicionIVAReceptorId>5</CondicionIVAReceptorId></FECAEDetRequest></FeDetReq></FeCAEReq>`,
    );
    return answer.includes("<Resultado>A</Resultado>");
  };
}

/** The API body of the same voucher, for POST /api/wsfe/facturas. */
export const facturaBody = (cuit: string, ptoVta: number, cbteTipo: number): string =>
  JSON.stringify({
    environment: "homologacion",
    representada: cuit,
    ptoVta,
    cbteTipo,
    concepto: 1,
    docTipo: 99,
    docNro: "0",
    condicionIvaReceptorId: 5,
    items: [{ descripcion: "Servicio", cantidad: 1, precioUnitario: "1210.50", alicuotaIva: 0 }],
  });

/** A POST to the gateway with a key, counted good on 200. */
export function gatewayCall(url: string, secret: string, body: string, timeoutMs = 30_000) {
  return async (): Promise<boolean> => {
    const answer = await httpPost(
      url,
      { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      body,
      timeoutMs,
    );
    return answer.status === 200;
  };
}
