export { catalogue, type CatalogueEntry, type ErrorCode, type ErrorKind } from "./catalogue.js";
export {
  appError,
  fail,
  isErrorCode,
  isRetryable,
  kindOf,
  ok,
  type AppError,
  type Result,
} from "./app-error.js";
export * from "./request.js";
export * from "./builders.js";
export * from "./issuance-authority.js";
