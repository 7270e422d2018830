import { configureZodMessages } from "./common/messages.js";

// Every process that speaks the contracts answers validation problems in the API's Spanish.
configureZodMessages();

export * from "./contract.js";
export * from "./common/fields.js";
export { CUIT_FORMAT, documentoDocument, documentoProblem, isValidCuit } from "./common/cuit.js";
export {
  AMOUNT_SIGNIFICANT_DIGITS,
  amountAnswer,
  exactNumber,
  significantDigits,
} from "./common/amount.js";
export { numeroComprobante } from "./common/cbte-tipo.js";
export { healthContract } from "./common/health.js";
export {
  AUTHORITY_QUERY_TIMEOUT_MS,
  AUTHORITY_STEP_MARGIN_MS,
  DEADLINE_SLACK_MS,
  MIN_AUTHORITY_CALL_MS,
  authorityQueryErrors,
} from "./common/authority-query.js";
export * as billing from "./billing/index.js";
export * as ticket from "./ticket/index.js";
export * as wsfe from "./wsfe/index.js";
export * as wsfex from "./wsfex/index.js";
export * as catalog from "./catalog/index.js";
export * as padron from "./padron/index.js";
export * as pdf from "./pdf/index.js";
export * as mail from "./mail/index.js";
export * as cobros from "./cobros/index.js";
export * as webhooks from "./webhooks/index.js";
export { configureZodMessages } from "./common/messages.js";
export { attachedError } from "./common/catalogue-issue.js";
export * from "./permissions.js";
export * from "./nats-authorization.js";
