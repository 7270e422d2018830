export {
  makeAccessTicketCache,
  type AccessTicket,
  type AccessTicketCache,
  type AccessTicketCacheOptions,
} from "./access-ticket-cache.js";
export {
  createSoapClient,
  describeSoapError,
  wsdlPath,
  type SoapClient,
  type SoapClientOptions,
  type SoapFailure,
  type SoapOutcome,
} from "./soap-client.js";
export {
  makeWsaaClient,
  parseLoginTicket,
  type LoginTicket,
  type WsaaClient,
  type WsaaLoginOutcome,
} from "./wsaa.js";
export { classifyWsaaFailure, type WsaaFailureClass } from "./wsaa-faults.js";
export {
  makeAsmxClient,
  xmlChild,
  xmlElement,
  xmlList,
  xmlString,
  xmlText,
  type AsmxClient,
  type AsmxClientOptions,
  type AsmxOutcome,
  type XmlObject,
  type XmlValue,
} from "./asmx-client.js";
export { withAccessTicket, type TicketedAttempt, type TicketKey } from "./ticketed-call.js";
export { httpPost, PostTimeout, type PostAnswer } from "./http-post.js";
export { describeTransportFailure } from "./transport-failure.js";
