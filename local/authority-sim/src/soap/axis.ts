import { escapeXml } from "./xml.js";

const ENVELOPE_OPEN =
  '<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope ' +
  'xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" ' +
  'xmlns:xsd="http://www.w3.org/2001/XMLSchema" ' +
  'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soapenv:Body>';
const ENVELOPE_CLOSE = "</soapenv:Body></soapenv:Envelope>";

export const AXIS_CONTENT_TYPE = "text/xml;charset=utf-8";

export function axisLoginResponse(ns: string, ta: string): string {
  return (
    `${ENVELOPE_OPEN}<loginCmsResponse xmlns="${escapeXml(ns)}">` +
    `<loginCmsReturn>${escapeXml(ta)}</loginCmsReturn></loginCmsResponse>${ENVELOPE_CLOSE}`
  );
}

/** The LoginFault shape recorded from WSAA: `ns1:<code>` plus exceptionName and hostname. */
export function axisLoginFault(code: string, message: string, hostname: string): string {
  return (
    `${ENVELOPE_OPEN}<soapenv:Fault>` +
    `<faultcode xmlns:ns1="http://xml.apache.org/axis/">ns1:${code}</faultcode>` +
    `<faultstring>${escapeXml(message)}</faultstring><detail>` +
    `<ns2:exceptionName xmlns:ns2="http://xml.apache.org/axis/">` +
    `gov.afip.desein.dvadac.sua.view.wsaa.LoginFault</ns2:exceptionName>` +
    `<ns3:hostname xmlns:ns3="http://xml.apache.org/axis/">${hostname}</ns3:hostname>` +
    `</detail></soapenv:Fault>${ENVELOPE_CLOSE}`
  );
}

/** What Axis answers when it cannot even deserialize the envelope. */
export function axisServerFault(message: string, hostname: string): string {
  return (
    `${ENVELOPE_OPEN}<soapenv:Fault><faultcode>soapenv:Server.userException</faultcode>` +
    `<faultstring>${escapeXml(message)}</faultstring><detail>` +
    `<ns1:hostname xmlns:ns1="http://xml.apache.org/axis/">${hostname}</ns1:hostname>` +
    `</detail></soapenv:Fault>${ENVELOPE_CLOSE}`
  );
}
