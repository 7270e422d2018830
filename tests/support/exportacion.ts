import type { Environment } from "./operator.js";

/** Today in Argentina (UTC−3), AAAAMMDD: the day the authority dates a voucher sent now. */
export const argentinaToday = (): string =>
  new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 10).replaceAll("-", "");

/** The authorized answer of POST /api/wsfex/facturas. */
export interface IssuedExport {
  resultado: "A";
  cae: string;
  caeVencimiento: string;
  cbteNro: number;
  ptoVta: number;
  cbteTipo: number;
  cbteFch: string;
  impTotal: number;
  moneda: string;
  cotizacion: number;
  observaciones: unknown[];
  qr: string;
  pdfUrl?: string;
}

/**
 * A Factura E for services billed in dollars to a client in the United States, printed in
 * English: the body POST /api/wsfex/facturas takes, `extra` replacing or adding fields.
 */
export const facturaEServicios = (
  where: { environment: Environment; representada: string; ptoVta: number },
  extra: Record<string, unknown> = {},
) => ({
  ...where,
  cbteTipo: 19,
  tipoExpo: 2,
  dstCmp: 212,
  cliente: {
    razonSocial: "Acme Software Inc.",
    domicilio: "500 Market St, San Francisco, CA 94105, USA",
    cuitPais: "50000002124",
    idImpositivo: "94-1234567",
  },
  moneda: "DOL",
  idioma: 2,
  formaPago: "Wire transfer, 30 days",
  fechaPago: argentinaToday(),
  items: [
    {
      codigo: "DEV",
      descripcion: "Software development services",
      cantidad: 3,
      unidadMedida: 98,
      precioUnitario: "33.33",
      bonificacion: "0.99",
    },
  ],
  ...extra,
});
