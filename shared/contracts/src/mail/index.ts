export { comprobanteJob, type ComprobanteJob } from "./comprobante-job.js";
