import type { z } from "zod";
import type { wsfe } from "@pasarela/contracts";

type Body = z.input<typeof wsfe.facturaBodySchema>;

/** A named request example of the OpenAPI document (its media type's `examples`). */
export interface FacturaExample {
  readonly summary: string;
  readonly description: string;
  readonly value: Body;
}

const representada = { environment: "homologacion", representada: "20111111112" } as const;

/**
 * Request examples of `POST /api/wsfe/facturas`, one per kind of voucher a business issues.
 * Each is a body the gateway accepts as is (a test parses every one and issues them against
 * the simulator, dates aside: `cbteFch` must be within days of the day it is sent).
 */
export const facturaExamples = {
  facturaA: {
    summary: "Factura A a un responsable inscripto, con ítems al 21% y al 10,5%",
    description:
      "Productos (concepto 1). El receptor va explícito (CUIT y condición frente al IVA 1, responsable inscripto); sin cbteFch se usa la fecha de hoy en la Argentina. Importes como número JSON o texto decimal; la pasarela calcula ImpNeto, ImpIVA e ImpTotal.",
    value: {
      ...representada,
      cbteTipo: 1,
      ptoVta: 3,
      concepto: 1,
      docTipo: 80,
      docNro: "30000000007",
      condicionIvaReceptorId: 1,
      items: [
        {
          codigo: "TOR-001",
          descripcion: "Tornillos x 100",
          cantidad: 10,
          precioUnitario: "1250.50",
          alicuotaIva: 21,
        },
        { descripcion: "Libros técnicos", cantidad: "2", precioUnitario: 8000, alicuotaIva: 10.5 },
      ],
      email: "compras@cliente.com.ar",
    },
  },
  facturaBConsumidorFinal: {
    summary: "Factura B a consumidor final sin identificar",
    description:
      "docTipo 99 con docNro 0 y condición 5 (consumidor final). En clase B el precio unitario va sin IVA y la pasarela discrimina el IVA por alícuota.",
    value: {
      ...representada,
      cbteTipo: 6,
      concepto: 1,
      docTipo: 99,
      docNro: "0",
      condicionIvaReceptorId: 5,
      items: [
        {
          descripcion: "Yerba mate 1 kg",
          cantidad: 3,
          precioUnitario: "2479.34",
          alicuotaIva: 21,
          unidadMedida: "unidad",
        },
      ],
    },
  },
  facturaC: {
    summary: "Factura C de un monotributista, con cliente y producto de la cuenta",
    description:
      "clienteId y productoId toman los datos cargados en /api/clientes y /api/productos; un valor enviado explícitamente gana (aquí la cantidad y la bonificación). En clase C no se discrimina IVA: alicuotaIva 0.",
    value: {
      ...representada,
      cbteTipo: 11,
      concepto: 1,
      clienteId: "5f0c2d3e-8a4b-4c1d-9e2f-3a4b5c6d7e8f",
      items: [
        {
          productoId: "0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e",
          cantidad: 2,
          alicuotaIva: 0,
          bonificacion: "500",
        },
      ],
    },
  },
  notaDeCreditoA: {
    summary: "Nota de crédito A asociada a una factura A",
    description:
      "Las notas de crédito y débito requieren comprobantesAsociados: el comprobante que ajustan (tipo, punto de venta y número).",
    value: {
      ...representada,
      cbteTipo: 3,
      ptoVta: 3,
      concepto: 1,
      docTipo: 80,
      docNro: "30000000007",
      condicionIvaReceptorId: 1,
      comprobantesAsociados: [{ cbteTipo: 1, ptoVta: 3, cbteNro: 1 }],
      items: [
        {
          descripcion: "Devolución: tornillos x 100",
          cantidad: 2,
          precioUnitario: "1250.50",
          alicuotaIva: 21,
        },
      ],
    },
  },
  facturaServicios: {
    summary: "Factura B de servicios (concepto 2) con período y vencimiento del pago",
    description:
      "Con concepto 2 o 3, fchServDesde, fchServHasta y fchVtoPago son obligatorias. Un tributo (percepción de IIBB) se suma a ImpTrib; su importe debe ser baseImponible × alicuota / 100.",
    value: {
      ...representada,
      cbteTipo: 6,
      concepto: 2,
      cbteFch: "20250131",
      fchServDesde: "20250101",
      fchServHasta: "20250131",
      fchVtoPago: "20250210",
      docTipo: 96,
      docNro: "30123456",
      condicionIvaReceptorId: 5,
      items: [
        {
          descripcion: "Abono mensual de soporte técnico",
          cantidad: 1,
          precioUnitario: "45000",
          alicuotaIva: 21,
        },
      ],
      tributos: [
        {
          id: 7,
          descripcion: "Percepción IIBB",
          baseImponible: "45000",
          alicuota: "2",
          importe: "900",
        },
      ],
    },
  },
  fceA: {
    summary: "Factura de Crédito Electrónica MiPyME A (201) con el bloque fce",
    description:
      "El bloque fce se traduce a los opcionales de la AFIP: cbu → 2101, alias → 2102, opcionTransferencia → 27 (SCA o ADC). Las facturas FCE requieren fchVtoPago y un receptor con CUIT.",
    value: {
      ...representada,
      cbteTipo: 201,
      ptoVta: 3,
      concepto: 1,
      fchVtoPago: "20250302",
      docTipo: 80,
      docNro: "30000000007",
      condicionIvaReceptorId: 1,
      fce: { cbu: "0170099220000067797370", alias: "empresa.cobros", opcionTransferencia: "SCA" },
      items: [
        {
          descripcion: "Partida de acero laminado",
          cantidad: "1.5",
          precioUnitario: "2000000",
          alicuotaIva: 21,
        },
      ],
    },
  },
  facturaDolares: {
    summary: "Factura A en dólares con la cotización del día de la AFIP",
    description:
      "moneda.id DOL sin cotizacion: la pasarela usa la cotización del día (FEParamGetCotizacion) y la devuelve en la respuesta. mismaMonedaExtranjera indica si se cancela en la misma moneda.",
    value: {
      ...representada,
      cbteTipo: 1,
      ptoVta: 3,
      concepto: 1,
      docTipo: 80,
      docNro: "30000000007",
      condicionIvaReceptorId: 1,
      moneda: { id: "DOL", mismaMonedaExtranjera: false },
      items: [
        { descripcion: "Licencia anual", cantidad: 1, precioUnitario: "1200", alicuotaIva: 21 },
      ],
    },
  },
} satisfies Record<string, FacturaExample>;
