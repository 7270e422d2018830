export { comprobanteJob, type ComprobanteJob } from "./comprobante-job.js";
export { mensajeJob, type MensajeJob } from "./mensaje-job.js";
export { emailEnviado, emailEventId, emailFallido } from "./email-events.js";
