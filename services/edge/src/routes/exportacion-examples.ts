import type { z } from "zod";
import type { wsfe } from "@pasarela/contracts";

type Body = z.input<typeof wsfe.exportacionBodySchema>;

/** A named request example of the OpenAPI document (its media type's `examples`). */
export interface ExportacionExample {
  readonly summary: string;
  readonly description: string;
  readonly value: Body;
}

const representada = { environment: "homologacion", representada: "20111111112" } as const;

/**
 * Request examples of `POST /api/wsfex/facturas`, one per kind of export a business invoices.
 * Each is a body the gateway accepts as is (a test issues every one against the simulator).
 */
export const exportacionExamples = {
  servicios: {
    summary: "Factura E de servicios a un cliente de los Estados Unidos, en dólares y en inglés",
    description:
      "tipoExpo 2 (servicios): fechaPago y formaPago obligatorias, sin Incoterms ni permisos. Sin cotizacion, la pasarela usa la del día de la AFIP (FEXGetPARAM_Ctz) y la devuelve. idioma 2 imprime el comprobante en inglés.",
    value: {
      ...representada,
      ptoVta: 7,
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
      fechaPago: "20261231",
      items: [
        {
          codigo: "DEV-HS",
          descripcion: "Software development services, November",
          cantidad: 160,
          unidadMedida: 98,
          precioUnitario: "45.50",
        },
      ],
    },
  },
  bienes: {
    summary: "Factura E de bienes con permiso de embarque e Incoterms, en dólares",
    description:
      'tipoExpo 1 (bienes): Incoterms obligatorios en la factura; permisoExistente "S" con sus permisos (formato 99999AAXX999999A y país de destino de la mercadería).',
    value: {
      ...representada,
      ptoVta: 7,
      cbteTipo: 19,
      tipoExpo: 1,
      permisoExistente: "S",
      permisos: [{ idPermiso: "26001EC01000123A", dstMerc: 203 }],
      dstCmp: 203,
      cliente: {
        razonSocial: "Importadora Paulista Ltda.",
        domicilio: "Av. Paulista 1000, São Paulo, Brasil",
        cuitPais: "55000000050",
      },
      moneda: "DOL",
      cotizacion: "1050.25",
      idioma: 3,
      incoterms: "FOB",
      incotermsDs: "Puerto Buenos Aires",
      formaPago: "Carta de crédito",
      items: [
        {
          codigo: "VINO-750",
          descripcion: "Vino Malbec 750 ml",
          cantidad: 1200,
          unidadMedida: 7,
          precioUnitario: "6.80",
          bonificacion: "120.00",
        },
      ],
    },
  },
  notaDeCredito: {
    summary: "Nota de crédito E que ajusta una factura E",
    description:
      "Una nota (20 o 21) nombra al menos un comprobante asociado de tipo 19, 20 o 21; el CUIT del emisor va en cuit.",
    value: {
      ...representada,
      ptoVta: 7,
      cbteTipo: 21,
      tipoExpo: 2,
      dstCmp: 212,
      cliente: {
        razonSocial: "Acme Software Inc.",
        domicilio: "500 Market St, San Francisco, CA 94105, USA",
        cuitPais: "50000002124",
      },
      moneda: "DOL",
      cotizacion: "1050.25",
      idioma: 2,
      comprobantesAsociados: [{ cbteTipo: 19, ptoVta: 7, cbteNro: 1, cuit: "20111111112" }],
      items: [
        {
          descripcion: "Credit for 10 hours not delivered",
          cantidad: 10,
          unidadMedida: 98,
          precioUnitario: "45.50",
        },
      ],
    },
  },
} satisfies Record<string, ExportacionExample>;
