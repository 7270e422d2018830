import { JAXWS_SCALARS, type JaxwsField, type JaxwsServiceSpec } from "../padron/schema.js";
import { escapeXml } from "../soap/xml.js";

/**
 * A JAX-WS style WSDL for one registry service, built from the simulator's own contract
 * (padron/schema.ts): document/literal, `soapAction=""`, one schema whose children are
 * unqualified (`elementFormDefault="unqualified"`), `SRValidationException` as the fault of
 * every operation, SOAP 1.1 only.
 */
function sequence(fields: readonly JaxwsField[], request: boolean): string {
  return `<xs:sequence>${fields
    .map(([name, type, repeated]) => {
      const ref = JAXWS_SCALARS.has(type) ? `xs:${type}` : `tns:${type}`;
      // request parameters are required; every answer field may be left out (JAX-WS nulls)
      const min = request ? "" : ' minOccurs="0"';
      const max = repeated === true ? ' maxOccurs="unbounded"' : "";
      const nillable = repeated === true && !request ? ' nillable="true"' : "";
      return `<xs:element${max}${min} name="${name}"${nillable} type="${ref}"/>`;
    })
    .join("")}</xs:sequence>`;
}

export function jaxwsWsdl(spec: JaxwsServiceSpec, address: string): string {
  const ns = escapeXml(spec.ns);
  const ops = Object.entries(spec.operations);
  const elements = ops
    .flatMap(([op]) => [
      `<xs:element name="${op}" type="tns:${op}"/>`,
      `<xs:element name="${op}Response" type="tns:${op}Response"/>`,
    ])
    .join("");
  const opTypes = ops
    .map(
      ([op, { input, output }]) =>
        `<xs:complexType name="${op}">${sequence(input, true)}</xs:complexType>` +
        `<xs:complexType name="${op}Response">${sequence([output], false)}</xs:complexType>`,
    )
    .join("");
  const types = Object.entries(spec.types)
    .map(
      ([name, fields]) =>
        `<xs:complexType name="${name}">${sequence(fields, false)}</xs:complexType>`,
    )
    .join("");
  const messages = ops
    .map(
      ([op]) =>
        `<wsdl:message name="${op}"><wsdl:part element="tns:${op}" name="parameters"/></wsdl:message>` +
        `<wsdl:message name="${op}Response"><wsdl:part element="tns:${op}Response" name="parameters"/></wsdl:message>`,
    )
    .join("");
  const portOps = ops
    .map(
      ([op]) =>
        `<wsdl:operation name="${op}"><wsdl:input message="tns:${op}" name="${op}"/>` +
        `<wsdl:output message="tns:${op}Response" name="${op}Response"/>` +
        `<wsdl:fault message="tns:SRValidationException" name="SRValidationException"/></wsdl:operation>`,
    )
    .join("");
  const bindingOps = ops
    .map(
      ([op]) =>
        `<wsdl:operation name="${op}"><soap:operation soapAction="" style="document"/>` +
        `<wsdl:input name="${op}"><soap:body use="literal"/></wsdl:input>` +
        `<wsdl:output name="${op}Response"><soap:body use="literal"/></wsdl:output>` +
        `<wsdl:fault name="SRValidationException"><soap:fault name="SRValidationException" use="literal"/></wsdl:fault>` +
        `</wsdl:operation>`,
    )
    .join("");
  const name = spec.serviceName;
  return (
    `<?xml version='1.0' encoding='UTF-8'?>\n<wsdl:definitions name="${name}" targetNamespace="${ns}" ` +
    `xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:tns="${ns}" ` +
    `xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:xsd="http://www.w3.org/2001/XMLSchema">` +
    `<wsdl:documentation>pasarela authority simulator: ${spec.service}</wsdl:documentation>` +
    `<wsdl:types><xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="${ns}" ` +
    `attributeFormDefault="unqualified" elementFormDefault="unqualified" targetNamespace="${ns}">` +
    `${elements}<xs:element name="SRValidationException" type="tns:SRValidationException"/>` +
    `${opTypes}${types}<xs:complexType name="SRValidationException"><xs:sequence/></xs:complexType>` +
    `</xs:schema></wsdl:types>${messages}` +
    `<wsdl:message name="SRValidationException"><wsdl:part element="tns:SRValidationException" name="SRValidationException"/></wsdl:message>` +
    `<wsdl:portType name="${name}">${portOps}</wsdl:portType>` +
    `<wsdl:binding name="${name}SoapBinding" type="tns:${name}">` +
    `<soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>${bindingOps}</wsdl:binding>` +
    `<wsdl:service name="${name}"><wsdl:port binding="tns:${name}SoapBinding" name="${name}Port">` +
    `<soap:address location="${escapeXml(address)}"/></wsdl:port></wsdl:service></wsdl:definitions>\n`
  );
}
