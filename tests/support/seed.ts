import { randomInt } from "node:crypto";
import { connectBus, type Bus } from "@pasarela/bus";
import { ticket } from "@pasarela/contracts";
import { createLogger, startTracing } from "@pasarela/telemetry";
import type { E2EStack } from "./stack.js";
import type { Environment, WsService } from "./operator.js";

/**
 * Issuance is not the gateway's yet, so tests that need an authorized voucher send
 * FECAESolicitar / FEXAuthorize straight to the simulator with the TA the running ticket
 * process hands out (the same TA the gateway uses: no extra WSAA login).
 */
export interface Seeder {
  facturaC(who: Who, ptoVta: number, cbteNro: number, impTotal: number): Promise<void>;
  facturaE(who: Who, ptoVta: number, cbteNro: number): Promise<void>;
  close(): Promise<void>;
}

export interface Who {
  accountId: string;
  cuit: string;
  environment: Environment;
}

const today = () => {
  const d = new Date(Date.now() - 3 * 3_600_000);
  return d.toISOString().slice(0, 10).replaceAll("-", "");
};

const services = {
  wsfe: { path: "wsfev1", namespace: "http://ar.gov.afip.dif.FEV1/" },
  wsfex: { path: "wsfexv1", namespace: "http://ar.gov.afip.dif.fexv1/" },
} as const;

async function soap(url: string, namespace: string, operation: string, inner: string) {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "text/xml; charset=utf-8",
      soapaction: `"${namespace}${operation}"`,
    },
    body:
      `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">` +
      `<soap:Body><${operation} xmlns="${namespace}">${inner}</${operation}></soap:Body></soap:Envelope>`,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  if (!response.ok || !text.includes("<Resultado>A</Resultado>"))
    throw new Error(`${operation} was not approved (${response.status}): ${text}`);
}

export async function seeder(stack: E2EStack): Promise<Seeder> {
  const natsUrl = stack.env.NATS_URL;
  if (!natsUrl || !stack.simulatorUrl) throw new Error("the stack has no NATS URL or simulator");
  const bus: Bus = await connectBus({
    url: natsUrl,
    prefix: stack.env.NATS_PREFIX,
    name: "e2e-seeder",
    logger: createLogger({ service: "e2e-seeder", level: "silent" }),
    tracer: startTracing({ service: "e2e-seeder" }).tracer,
  });
  const simulatorUrl = stack.simulatorUrl;
  /** `operation` of `service` for `who`, signed with the TA the ticket process hands out */
  const issue = async (who: Who, service: WsService, operation: string, request: string) => {
    const ta = await bus.request(
      ticket.accessGet,
      { cuit: who.cuit, environment: who.environment, service },
      { accountId: who.accountId },
    );
    if (!ta.ok) throw new Error(ta.error.message);
    const { path, namespace } = services[service];
    await soap(
      `${simulatorUrl}/${who.environment}/${path}/service.asmx`,
      namespace,
      operation,
      `<Auth><Token>${ta.value.token}</Token><Sign>${ta.value.sign}</Sign><Cuit>${who.cuit}</Cuit></Auth>${request}`,
    );
  };
  return {
    facturaC: (who, ptoVta, cbteNro, impTotal) =>
      issue(
        who,
        "wsfe",
        "FECAESolicitar",
        `<FeCAEReq><FeCabReq><CantReg>1</CantReg><PtoVta>${ptoVta}</PtoVta><CbteTipo>11</CbteTipo></FeCabReq>` +
          `<FeDetReq><FECAEDetRequest><Concepto>1</Concepto><DocTipo>99</DocTipo><DocNro>0</DocNro>` +
          `<CbteDesde>${cbteNro}</CbteDesde><CbteHasta>${cbteNro}</CbteHasta><CbteFch>${today()}</CbteFch>` +
          `<ImpTotal>${impTotal}</ImpTotal><ImpTotConc>0</ImpTotConc><ImpNeto>${impTotal}</ImpNeto>` +
          `<ImpOpEx>0</ImpOpEx><ImpTrib>0</ImpTrib><ImpIVA>0</ImpIVA><MonId>PES</MonId><MonCotiz>1</MonCotiz>` +
          `<CondicionIVAReceptorId>5</CondicionIVAReceptorId></FECAEDetRequest></FeDetReq></FeCAEReq>`,
      ),
    facturaE: (who, ptoVta, cbteNro) =>
      issue(
        who,
        "wsfex",
        "FEXAuthorize",
        `<Cmp><Id>${randomInt(1, 1_000_000)}</Id><Fecha_cbte>${today()}</Fecha_cbte><Cbte_Tipo>19</Cbte_Tipo>` +
          `<Punto_vta>${ptoVta}</Punto_vta><Cbte_nro>${cbteNro}</Cbte_nro><Tipo_expo>1</Tipo_expo>` +
          `<Permiso_existente>N</Permiso_existente><Dst_cmp>203</Dst_cmp><Cliente>Importadora SA</Cliente>` +
          `<Cuit_pais_cliente>50000000016</Cuit_pais_cliente><Domicilio_cliente>Rua 1</Domicilio_cliente>` +
          `<Id_impositivo>123</Id_impositivo><Moneda_Id>DOL</Moneda_Id><Moneda_ctz>1000</Moneda_ctz>` +
          `<Imp_total>250.5</Imp_total><Forma_pago>Transferencia</Forma_pago><Incoterms>FOB</Incoterms>` +
          `<Idioma_cbte>1</Idioma_cbte><Items><Item><Pro_codigo>A1</Pro_codigo><Pro_ds>Vino</Pro_ds>` +
          `<Pro_qty>1</Pro_qty><Pro_umed>7</Pro_umed><Pro_precio_uni>250.5</Pro_precio_uni>` +
          `<Pro_bonificacion>0</Pro_bonificacion><Pro_total_item>250.5</Pro_total_item></Item></Items></Cmp>`,
      ),
    close: () => bus.close(),
  };
}
