export { accountCreate } from "./account-create.js";
export { keyCreate } from "./key-create.js";
export { keyList } from "./key-list.js";
export { keyRevoke } from "./key-revoke.js";
export { keyRevoked } from "./key-revoked.event.js";
export { keyScopeSchema, type KeyScope } from "./key-scope.js";
export { keyVerify } from "./key-verify.js";
export {
  facturaAdmit,
  facturaHold,
  facturaSettle,
  facturaAnswerSchema,
  facturaOutcomeEventSchema,
  facturaOutcomeSchema,
  type FacturaAnswer,
  type FacturaOutcome,
  type FacturaOutcomeEvent,
} from "./factura-admission.js";
export {
  quotaCommit,
  quotaRelease,
  quotaReserve,
  quotaResourceSchema,
  type QuotaResource,
} from "./quota.js";
export {
  PERIODOS,
  accountUsage,
  accountUsageSchema,
  periodoSchema,
  planAssign,
  planCreate,
  planList,
  planSchema,
  type AccountUsage,
  type Periodo,
  type Plan,
} from "./plan.js";
export {
  usageDaySchema,
  usageFilterSchema,
  usageList,
  usageCallSchema,
  usageRecordSchema,
  usageSummary,
  usoRegistrado,
  type UsageCall,
  type UsageRecord,
} from "./usage.js";
export {
  accountOwnerGet,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  passwordSchema,
  userAdd,
  userEmailSchema,
  userGet,
  userLogin,
  userPasswordChange,
  userResetComplete,
  userResetRequest,
  userRoleSchema,
  userSignup,
  type UserRole,
} from "./user.js";
export {
  SOPORTE_ESTADOS,
  soporteAutorSchema,
  soporteClose,
  soporteCreate,
  soporteEstadoSchema,
  soporteGet,
  soporteList,
  soporteMensajeSchema,
  soporteOperadorGet,
  soporteOperadorList,
  soporteOperadorReply,
  soporteReply,
  soporteResumenSchema,
  soporteTicketSchema,
  type SoporteAutor,
  type SoporteEstado,
  type SoporteResumen,
  type SoporteTicket,
} from "./soporte.js";
export {
  CUOTA_UMBRALES,
  cuotaAlerta,
  cuotaAlertaId,
  type CuotaUmbral,
} from "./cuota-alerta.event.js";
