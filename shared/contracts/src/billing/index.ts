export { accountCreate } from "./account-create.js";
export { keyCreate } from "./key-create.js";
export { keyList } from "./key-list.js";
export { keyRevoke } from "./key-revoke.js";
export { keyRevoked } from "./key-revoked.event.js";
export { keyScopeSchema, type KeyScope } from "./key-scope.js";
export { keyVerify } from "./key-verify.js";
