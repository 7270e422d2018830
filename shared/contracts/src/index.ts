export * from "./contract.js";
export * from "./common/fields.js";
export { healthContract } from "./common/health.js";
export * as billing from "./billing/index.js";
export * as ticket from "./ticket/index.js";
export * as wsfe from "./wsfe/index.js";
export * as wsfex from "./wsfex/index.js";
export * as catalog from "./catalog/index.js";
