export { authorityNow, authorityOffsetMs, observeAuthorityDate } from "./authority-clock.js";
export {
  followCertificateChanges,
  makeAccessTicketCache,
  type AccessTicket,
  type AccessTicketCache,
  type AccessTicketCacheOptions,
  type AccessTicketRequest,
} from "./access-ticket-cache.js";
export { socketFailure, type SoapFailure } from "./soap-failure.js";
export { makeSingleFlight, type SingleFlight } from "./single-flight.js";
export {
  makeAuthorityClient,
  postWithFetch,
  readEnvelope,
  type AuthorityCall,
  type AuthorityClient,
  type AuthorityClientOptions,
  type AuthorityPost,
  type CallOutcome,
  type SoapRequest,
} from "./authority-client.js";
export {
  makeWsaaClient,
  type LoginTicket,
  type WsaaClient,
  type WsaaLoginOutcome,
  tokenIssuer,
} from "./wsaa.js";
export { classifyWsaaFailure, type WsaaFailureClass } from "./wsaa-faults.js";
export {
  makeAsmxClient,
  xmlChild,
  xmlElement,
  xmlList,
  xmlString,
  type AsmxClient,
  type AsmxClientOptions,
  type AsmxOutcome,
  type XmlObject,
  type XmlValue,
} from "./asmx-client.js";
export {
  classifyAsmxErr,
  type AsmxErr,
  type AsmxErrCodes,
  type AsmxErrContext,
} from "./asmx-errors.js";
export { withAccessTicket, type TicketedAttempt, type TicketKey } from "./ticketed-call.js";
export {
  makeAsmxService,
  makeTicketedService,
  type AsmxOperation,
  type AsmxService,
  type TicketedCall,
  type TicketedCaller,
  type TicketedService,
} from "./ticketed-service.js";
export {
  AUTHORITY_MAX_BODY_BYTES,
  httpPost,
  trustAuthorityCa,
  type PostAnswer,
} from "./http-post.js";
export { readXml, type ReadXmlOptions } from "./xml-reader.js";
export { describeTransportFailure } from "./transport-failure.js";
export { traceAuthorityCall, type AuthorityTarget, type SpanOutcome } from "./tracing.js";
export {
  classifyWsfexError,
  makeWsfexAdapter,
  type WsfexAdapter,
  type WsfexCaller,
} from "./wsfex/adapter.js";
export {
  fexCmpXml,
  motivosObs,
  type FexAuthorizeOutcome,
  type FexMessage,
} from "./wsfex/authorize.js";
export { cannotLandAnyMore } from "./landing.js";
export {
  argentinaDate,
  fexDate,
  makeWsfexParams,
  type FexCotizacion,
  type FexListTabla,
  type FexParametroItem,
  type WsfexParams,
} from "./wsfex/params.js";
