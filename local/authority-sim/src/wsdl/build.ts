import { escapeXml } from "../soap/xml.js";

/** [name, type, optional?, repeated?]; a type without prefix is a tns complex type. */
export type Field = readonly [name: string, type: string, optional?: boolean, repeated?: boolean];

export interface AsmxWsdlSpec {
  readonly ns: string;
  readonly documentation: string;
  readonly types: Readonly<Record<string, readonly Field[]>>;
  /** operation → request fields and the result's complex type name. */
  readonly operations: Readonly<Record<string, { input: readonly Field[]; result: string }>>;
}

/** A complex type followed by its ASMX `ArrayOf<name>` wrapper type. */
export function withArray(
  name: string,
  fields: readonly Field[],
): Record<string, readonly Field[]> {
  return { [name]: fields, [`ArrayOf${name}`]: [[name, name, true, true]] };
}

const XSD_TYPES = new Set(["string", "int", "long", "short", "double", "decimal", "boolean"]);

function typeRef(t: string): string {
  return XSD_TYPES.has(t) ? `s:${t}` : `tns:${t}`;
}

function sequence(fields: readonly Field[]): string {
  return `<s:sequence>${fields
    .map(([name, type, optional, repeated]) => {
      const nullableString = !XSD_TYPES.has(type) || type === "string";
      const min = optional === true || nullableString || repeated === true ? 0 : 1;
      const max = repeated === true ? "unbounded" : "1";
      return `<s:element minOccurs="${min}" maxOccurs="${max}" name="${name}" type="${typeRef(type)}"/>`;
    })
    .join("")}</s:sequence>`;
}

/** An ASMX-style WSDL (SOAP 1.1 and 1.2 bindings on one address) for the operations given. */
export function asmxWsdl(spec: AsmxWsdlSpec, address: string): string {
  const ops = Object.entries(spec.operations);
  const elements = ops
    .map(
      ([op, { input, result }]) =>
        `<s:element name="${op}"><s:complexType>${sequence(input)}</s:complexType></s:element>` +
        `<s:element name="${op}Response"><s:complexType>${sequence([[`${op}Result`, result, true]])}` +
        `</s:complexType></s:element>`,
    )
    .join("");
  const types = Object.entries(spec.types)
    .map(([name, fields]) => `<s:complexType name="${name}">${sequence(fields)}</s:complexType>`)
    .join("");
  const messages = ops
    .map(
      ([op]) =>
        `<wsdl:message name="${op}SoapIn"><wsdl:part name="parameters" element="tns:${op}"/></wsdl:message>` +
        `<wsdl:message name="${op}SoapOut"><wsdl:part name="parameters" element="tns:${op}Response"/></wsdl:message>`,
    )
    .join("");
  const portOps = ops
    .map(
      ([op]) =>
        `<wsdl:operation name="${op}"><wsdl:input message="tns:${op}SoapIn"/>` +
        `<wsdl:output message="tns:${op}SoapOut"/></wsdl:operation>`,
    )
    .join("");
  const binding = (prefix: "soap" | "soap12"): string =>
    ops
      .map(
        ([op]) =>
          `<wsdl:operation name="${op}"><${prefix}:operation soapAction="${spec.ns}${op}" style="document"/>` +
          `<wsdl:input><${prefix}:body use="literal"/></wsdl:input>` +
          `<wsdl:output><${prefix}:body use="literal"/></wsdl:output></wsdl:operation>`,
      )
      .join("");
  const addr = escapeXml(address);
  return (
    `<?xml version="1.0" encoding="utf-8"?>\n<wsdl:definitions xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" ` +
    `xmlns:tns="${spec.ns}" xmlns:s="http://www.w3.org/2001/XMLSchema" ` +
    `xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" ` +
    `targetNamespace="${spec.ns}">` +
    `<wsdl:documentation>${escapeXml(spec.documentation)}</wsdl:documentation>` +
    `<wsdl:types><s:schema elementFormDefault="qualified" targetNamespace="${spec.ns}">` +
    `${elements}${types}</s:schema></wsdl:types>${messages}` +
    `<wsdl:portType name="ServiceSoap">${portOps}</wsdl:portType>` +
    `<wsdl:binding name="ServiceSoap" type="tns:ServiceSoap">` +
    `<soap:binding transport="http://schemas.xmlsoap.org/soap/http"/>${binding("soap")}</wsdl:binding>` +
    `<wsdl:binding name="ServiceSoap12" type="tns:ServiceSoap">` +
    `<soap12:binding transport="http://schemas.xmlsoap.org/soap/http"/>${binding("soap12")}</wsdl:binding>` +
    `<wsdl:service name="Service">` +
    `<wsdl:port name="ServiceSoap" binding="tns:ServiceSoap"><soap:address location="${addr}"/></wsdl:port>` +
    `<wsdl:port name="ServiceSoap12" binding="tns:ServiceSoap12"><soap12:address location="${addr}"/></wsdl:port>` +
    `</wsdl:service></wsdl:definitions>\n`
  );
}

/** WSAA's Axis WSDL: document/literal loginCms{in0} in the view namespace, soapAction "". */
export function wsaaWsdl(address: string): string {
  const addr = escapeXml(address);
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<wsdl:definitions targetNamespace="${addr}" ` +
    `xmlns:impl="${addr}" xmlns:tns1="http://wsaa.view.sua.dvadac.desein.afip.gov" ` +
    `xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:wsdlsoap="http://schemas.xmlsoap.org/wsdl/soap/" ` +
    `xmlns:xsd="http://www.w3.org/2001/XMLSchema"><wsdl:types>` +
    `<schema elementFormDefault="qualified" targetNamespace="http://wsaa.view.sua.dvadac.desein.afip.gov" ` +
    `xmlns="http://www.w3.org/2001/XMLSchema">` +
    `<element name="loginCms"><complexType><sequence><element name="in0" type="xsd:string"/></sequence></complexType></element>` +
    `<element name="loginCmsResponse"><complexType><sequence><element name="loginCmsReturn" type="xsd:string"/>` +
    `</sequence></complexType></element></schema>` +
    `<schema elementFormDefault="qualified" targetNamespace="${addr}" xmlns="http://www.w3.org/2001/XMLSchema">` +
    `<complexType name="LoginFault"><sequence/></complexType><element name="fault" type="impl:LoginFault"/></schema>` +
    `</wsdl:types>` +
    `<wsdl:message name="loginCmsRequest"><wsdl:part element="tns1:loginCms" name="parameters"/></wsdl:message>` +
    `<wsdl:message name="loginCmsResponse"><wsdl:part element="tns1:loginCmsResponse" name="parameters"/></wsdl:message>` +
    `<wsdl:message name="LoginFault"><wsdl:part element="impl:fault" name="fault"/></wsdl:message>` +
    `<wsdl:portType name="LoginCMS"><wsdl:operation name="loginCms">` +
    `<wsdl:input message="impl:loginCmsRequest" name="loginCmsRequest"/>` +
    `<wsdl:output message="impl:loginCmsResponse" name="loginCmsResponse"/>` +
    `<wsdl:fault message="impl:LoginFault" name="LoginFault"/></wsdl:operation></wsdl:portType>` +
    `<wsdl:binding name="LoginCmsSoapBinding" type="impl:LoginCMS">` +
    `<wsdlsoap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>` +
    `<wsdl:operation name="loginCms"><wsdlsoap:operation soapAction=""/>` +
    `<wsdl:input name="loginCmsRequest"><wsdlsoap:body use="literal"/></wsdl:input>` +
    `<wsdl:output name="loginCmsResponse"><wsdlsoap:body use="literal"/></wsdl:output>` +
    `<wsdl:fault name="LoginFault"><wsdlsoap:fault name="LoginFault" use="literal"/></wsdl:fault>` +
    `</wsdl:operation></wsdl:binding>` +
    `<wsdl:service name="LoginCMSService"><wsdl:port binding="impl:LoginCmsSoapBinding" name="LoginCms">` +
    `<wsdlsoap:address location="${addr}"/></wsdl:port></wsdl:service></wsdl:definitions>\n`
  );
}
