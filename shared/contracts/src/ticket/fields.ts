import { z } from "zod";

/**
 * The certificate alias is the CN the authority shows in WSASS / Administrador de Relaciones;
 * kept to characters every CA front end accepts.
 */
export const aliasSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,49}$/, "letras, dígitos, '.', '_' o '-' (hasta 50)");

/** Lifecycle of one key/certificate of a representada. Only `active` signs TRAs. */
export const certificateStatusSchema = z.enum(["pending", "active", "replaced", "cancelled"]);
export type CertificateStatus = z.infer<typeof certificateStatusSchema>;

/** PEM text crossing the bus; bounded so a stray binary cannot flood a handler. */
export const pemTextSchema = z.string().min(1).max(64_000);
