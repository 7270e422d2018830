import { wsfe, type catalog } from "@pasarela/contracts";
import type { AppError, Result } from "@pasarela/errors";
import {
  prepareExportacion,
  type ExportacionReferences,
  type PreparedExportacion,
} from "../../../src/domain/exportacion/index.js";

// 2026-03-16 09:00 in Argentina
export const NOW = new Date("2026-03-16T12:00:00Z");
export const TODAY = "20260316";
export const REPRESENTADA = "20111111112";
/** Uruguay's generic CUIT for legal persons (FEXGetPARAM_DST_CUIT) */
export const CUIT_URUGUAY = "50000000016";

/** A Factura E of goods to Uruguay in dollars, with a shipping permit. */
export const facturaE = {
  environment: "homologacion",
  representada: REPRESENTADA,
  ptoVta: 7,
  cbteTipo: 19,
  tipoExpo: 1,
  permisoExistente: "S",
  permisos: [{ idPermiso: "26001EC01000123A", dstMerc: 225 }],
  dstCmp: 225,
  cliente: {
    razonSocial: "Importadora del Plata SA",
    domicilio: "Av. 18 de Julio 1234, Montevideo",
    cuitPais: CUIT_URUGUAY,
  },
  moneda: "DOL",
  cotizacion: "1050.25",
  idioma: 1,
  incoterms: "FOB",
  formaPago: "Transferencia a 30 días",
  items: [
    {
      codigo: "VINO-1",
      descripcion: "Vino tinto",
      cantidad: 3,
      unidadMedida: 7,
      precioUnitario: "33.33",
      bonificacion: "0.99",
    },
    { descripcion: "Aceite de oliva", cantidad: "2.5", unidadMedida: 5, precioUnitario: 10.005 },
  ],
};

/** A Nota de Crédito E of services adjusting invoice 19-00007-00000042. */
export const notaCreditoE = {
  environment: "homologacion",
  representada: REPRESENTADA,
  ptoVta: 7,
  cbteTipo: 21,
  tipoExpo: 2,
  dstCmp: 203,
  cliente: {
    razonSocial: "Cliente do Brasil Ltda",
    domicilio: "Rua Augusta 100, São Paulo",
    idImpositivo: "12.345.678/0001-90",
  },
  moneda: "DOL",
  idioma: 3,
  items: [{ descripcion: "Consultoría", cantidad: 1, unidadMedida: 7, precioUnitario: "500" }],
  comprobantesAsociados: [{ cbteTipo: 19, ptoVta: 7, cbteNro: 42 }],
};

export const noRefs: ExportacionReferences = { productos: new Map() };

export function prepare(
  body: Record<string, unknown>,
  refs: ExportacionReferences = noRefs,
  now: Date = NOW,
): Result<PreparedExportacion> {
  return prepareExportacion(wsfe.exportacionBodySchema.parse(body), refs, now);
}

export function prepared(
  body: Record<string, unknown>,
  refs?: ExportacionReferences,
): PreparedExportacion {
  const result = prepare(body, refs);
  if (!result.ok) throw new Error(`expected a voucher, got ${JSON.stringify(result.error)}`);
  return result.value;
}

export function refused(body: Record<string, unknown>, refs?: ExportacionReferences): AppError {
  const result = prepare(body, refs);
  if (result.ok) throw new Error("expected a refusal");
  return result.error;
}

export const cliente = (changes: Partial<catalog.Cliente> = {}): catalog.Cliente => ({
  id: "5b0a3f0e-8f7c-4a59-9d3e-4b1de5a0c001",
  docTipo: 80,
  docNro: CUIT_URUGUAY,
  razonSocial: "Cliente del catálogo SA",
  condicionIvaReceptorId: 9,
  email: null,
  domicilio: "Rambla 1, Punta del Este",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  ...changes,
});

export const producto = (changes: Partial<catalog.Producto> = {}): catalog.Producto => ({
  id: "6c1b4a1f-9a8d-4b6a-8e4f-5c2ef6b1d002",
  codigo: "SKU-1",
  descripcion: "Producto del catálogo",
  precioUnitario: "1210.50",
  alicuotaIva: 21,
  unidadMedida: "7",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  ...changes,
});
