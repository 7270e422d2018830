// `npm run bench:xml`: the project's own reader (`readXml`) against fast-xml-parser on the
// documents the gateway reads from the authority: the access ticket (loginCmsReturn's XML),
// a token's `sso` (with its attributes, to tell which WSAA issued it), a FECAESolicitar answer
// of 50 vouchers, a FECompConsultar answer and a registry getPersona answer. Each reader is
// configured as the gateway would need it (local names, values as strings, trimmed text; for
// the token, attributes and a validation pass first, as the library needs to tell malformed
// text apart). Rounds alternate the two readers; the median of the rounds is printed.
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { readXml } from "../../src/xml-reader.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 400);

const base64 = (length: number) =>
  Buffer.from(Array.from({ length }, (_, i) => (i * 7919) % 251)).toString("base64");

const ssoXml =
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sso version="2.0">\n` +
  `    <id src="CN=wsaahomo, O=AFIP, C=AR, SERIALNUMBER=CUIT 33693450239" dst="CN=wsfe, O=AFIP, C=AR" unique_id="1184297432" gen_time="1764201600" exp_time="1764244860"/>\n` +
  `    <operation type="login" value="granted">\n        <login entity="33693450239" service="wsfe" uid="SERIALNUMBER=CUIT 20111111112, CN=clienttest" authmethod="cms" regmethod="22">\n` +
  `            <relations>\n                <relation key="20111111112" reltype="4"/>\n                <relation key="30712345671" reltype="4"/>\n            </relations>\n        </login>\n    </operation>\n</sso>\n`;

const loginTicket =
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<loginTicketResponse version="1.0">\n    <header>\n` +
  `        <source>CN=wsaahomo, O=AFIP, C=AR, SERIALNUMBER=CUIT 33693450239</source>\n` +
  `        <destination>SERIALNUMBER=CUIT 20111111112, CN=clienttest</destination>\n` +
  `        <uniqueId>1184297432</uniqueId>\n` +
  `        <generationTime>2026-11-27T00:00:00.000-03:00</generationTime>\n` +
  `        <expirationTime>2026-11-27T12:00:00.000-03:00</expirationTime>\n` +
  `    </header>\n    <credentials>\n` +
  `        <token>${Buffer.from(ssoXml).toString("base64")}</token>\n        <sign>${base64(128)}</sign>\n` +
  `    </credentials>\n</loginTicketResponse>\n`;

const asmx = (operation: string, inner: string) =>
  `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">` +
  `<soap:Body><${operation}Response xmlns="http://ar.gov.afip.dif.FEV1/"><${operation}Result>${inner}</${operation}Result></${operation}Response></soap:Body></soap:Envelope>`;

const detail = (n: number) =>
  `<FECAEDetResponse><Concepto>1</Concepto><DocTipo>80</DocTipo><DocNro>30712345671</DocNro><CbteDesde>${n}</CbteDesde><CbteHasta>${n}</CbteHasta>` +
  `<CbteFch>20261127</CbteFch><Resultado>A</Resultado><Observaciones><Obs><Code>10217</Code><Msg>El credito fiscal discriminado en el presente comprobante solo podra ser computado a efectos del Procedimiento permanente de transicion al Regimen General.</Msg></Obs></Observaciones>` +
  `<CAE>7648${String(n).padStart(10, "0")}</CAE><CAEFchVto>20261207</CAEFchVto></FECAEDetResponse>`;

const solicitar = asmx(
  "FECAESolicitar",
  `<FeCabResp><Cuit>20111111112</Cuit><PtoVta>3</PtoVta><CbteTipo>6</CbteTipo><FchProceso>20261127000000</FchProceso><CantReg>50</CantReg><Resultado>A</Resultado><Reproceso>N</Reproceso></FeCabResp>` +
    `<FeDetResp>${Array.from({ length: 50 }, (_, i) => detail(i + 1)).join("")}</FeDetResp>`,
);

const consultar = asmx(
  "FECompConsultar",
  `<ResultGet><Concepto>1</Concepto><DocTipo>99</DocTipo><DocNro>0</DocNro><CbteDesde>41</CbteDesde><CbteHasta>41</CbteHasta><CbteFch>20261127</CbteFch>` +
    `<ImpTotal>1210</ImpTotal><ImpTotConc>0</ImpTotConc><ImpNeto>1000</ImpNeto><ImpOpEx>0</ImpOpEx><ImpTrib>0</ImpTrib><ImpIVA>210</ImpIVA><MonId>PES</MonId><MonCotiz>1</MonCotiz>` +
    `<Iva><AlicIva><Id>5</Id><BaseImp>1000</BaseImp><Importe>210</Importe></AlicIva></Iva><Resultado>A</Resultado><CodAutorizacion>76481234567890</CodAutorizacion>` +
    `<EmisionTipo>CAE</EmisionTipo><FchVto>20261207</FchVto><FchProceso>20261127101010</FchProceso><PtoVta>3</PtoVta><CbteTipo>6</CbteTipo></ResultGet>`,
);

const persona =
  `<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>` +
  `<ns2:getPersonaResponse xmlns:ns2="http://a13.soap.ws.server.puc.sr/"><personaReturn><metadata><fechaHora>2026-11-27T00:00:00.000-03:00</fechaHora><servidor>setiwsh2</servidor></metadata>` +
  `<persona><apellido>GOMEZ</apellido><descripcionActividadPrincipal>SERVICIOS DE CONSULTORES EN INFORMÁTICA</descripcionActividadPrincipal><domicilio><codPostal>1425</codPostal>` +
  `<descripcionProvincia>CIUDAD AUTONOMA BUENOS AIRES</descripcionProvincia><direccion>AV SANTA FE 1234 Piso:5 Dpto:A</direccion><idProvincia>0</idProvincia><tipoDomicilio>FISCAL</tipoDomicilio></domicilio>` +
  `<domicilio><codPostal>1650</codPostal><descripcionProvincia>BUENOS AIRES</descripcionProvincia><direccion>CALLE 9 567</direccion><idProvincia>1</idProvincia><localidad>SAN MARTIN</localidad><tipoDomicilio>LEGAL/REAL</tipoDomicilio></domicilio>` +
  `<estadoClave>ACTIVO</estadoClave><fechaNacimiento>1980-05-17T12:00:00-03:00</fechaNacimiento><idActividadPrincipal>620100</idActividadPrincipal><idPersona>20111111112</idPersona>` +
  `<mesCierre>12</mesCierre><nombre>JUAN CARLOS</nombre><numeroDocumento>11111111</numeroDocumento><tipoClave>CUIT</tipoClave><tipoDocumento>DNI</tipoDocumento><tipoPersona>FISICA</tipoPersona></persona>` +
  `</personaReturn></ns2:getPersonaResponse></soap:Body></soap:Envelope>`;

// as the gateway would need each reading: local names, strings, trimmed text
const answers = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: true,
});
const withAttributes = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  parseAttributeValue: false,
  parseTagValue: false,
  removeNSPrefix: true,
});

interface Case {
  readonly name: string;
  readonly document: string;
  readonly own: (xml: string) => unknown;
  readonly library: (xml: string) => unknown;
}

const cases: Case[] = [
  {
    name: "access ticket (loginTicketResponse)",
    document: loginTicket,
    own: (xml) => readXml(xml),
    library: (xml) => answers.parse(xml) as unknown,
  },
  {
    name: "token sso, with attributes",
    document: ssoXml,
    own: (xml) => readXml(xml, { attributes: true }),
    library: (xml) =>
      XMLValidator.validate(xml) === true ? (withAttributes.parse(xml) as unknown) : undefined,
  },
  {
    name: "FECAESolicitar, 50 vouchers",
    document: solicitar,
    own: (xml) => readXml(xml),
    library: (xml) => answers.parse(xml) as unknown,
  },
  {
    name: "FECompConsultar",
    document: consultar,
    own: (xml) => readXml(xml),
    library: (xml) => answers.parse(xml) as unknown,
  },
  {
    name: "padron getPersona",
    document: persona,
    own: (xml) => readXml(xml),
    library: (xml) => answers.parse(xml) as unknown,
  },
];

/** Documents read per second during `ms`. */
function rate(read: (xml: string) => unknown, xml: string, ms: number): number {
  let count = 0;
  let sink = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    for (let i = 0; i < 50; i++) if (read(xml) !== undefined) sink++;
    count += 50;
    elapsed = performance.now() - start;
  } while (elapsed < ms);
  if (sink !== count) throw new Error("a reader refused a benchmark document");
  return (count * 1000) / elapsed;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const format = (perSecond: number) => Math.round(perSecond).toLocaleString("en-US");

console.log(
  `node ${process.version}, ${ROUNDS} alternating rounds of ${ROUND_MS} ms per reader, median\n`,
);
console.log("| document | bytes | readXml (docs/s) | fast-xml-parser (docs/s) | ratio |");
console.log("|---|---:|---:|---:|---:|");
for (const c of cases) {
  rate(c.own, c.document, 200);
  rate(c.library, c.document, 200);
  const own: number[] = [];
  const library: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    own.push(rate(c.own, c.document, ROUND_MS));
    library.push(rate(c.library, c.document, ROUND_MS));
  }
  const [o, l] = [median(own), median(library)];
  console.log(
    `| ${c.name} | ${Buffer.byteLength(c.document)} | ${format(o)} | ${format(l)} | ${(o / l).toFixed(1)}× |`,
  );
}
