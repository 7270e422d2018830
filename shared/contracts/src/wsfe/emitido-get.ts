import { z } from "zod";
import { defineContract } from "../contract.js";
import { environmentSchema, representadaSchema } from "../common/fields.js";
import { emisorSchema } from "../ticket/perfil.js";
import { autorizacionShape, rechazoSchema } from "./comprobante-list.js";
import { cbteNroSchema, ptoVtaSchema } from "./fields.js";
import { issuedCbteTipoSchema } from "./issued-cbte-tipo.js";

const decimal = z.string().regex(/^\d+(\.\d+)?$/);
const fecha = z.string().regex(/^\d{8}$/);

/** A line as stored: amounts as exact decimal text, `importe` rounded once to cents. */
export const emitidoItemSchema = z.object({
  codigo: z.string().optional(),
  descripcion: z.string(),
  cantidad: decimal,
  precioUnitario: decimal,
  /** a rate in % ("21"), or `no_gravado` / `exento`; absent on export vouchers (no VAT) */
  alicuotaIva: z.string().optional(),
  bonificacion: decimal,
  unidadMedida: z.string().optional(),
  /** negative on an export discount line (unit 99) */
  importe: z.string().regex(/^-?\d+(\.\d+)?$/),
});

/**
 * A voucher the account issued through the gateway, as stored when it was sent (receiver,
 * items, VAT per rate, tributes, totals, currency) with the authority's verdict. Only final
 * verdicts are answered: `authorized` (with its CAE) and `rejected`; a voucher issued in
 * contingency is answered from its issuance on: `caea_pendiente` until informed, `authorized`
 * once the authority accepted it, `caea_rechazado` (with `rechazo`) when it refused it.
 */
export const emitidoSchema = z.object({
  state: z.enum(["authorized", "rejected", "caea_pendiente", "caea_rechazado"]),
  environment: environmentSchema,
  cuit: representadaSchema,
  ptoVta: z.number().int(),
  cbteTipo: z.number().int(),
  cbteNro: z.number().int(),
  concepto: z.number().int(),
  cbteFch: fecha,
  fchServDesde: fecha.optional(),
  fchServHasta: fecha.optional(),
  fchVtoPago: fecha.optional(),
  receptor: z.object({
    docTipo: z.number().int(),
    docNro: z.string(),
    condicionIvaReceptorId: z.number().int(),
    razonSocial: z.string().optional(),
    domicilio: z.string().optional(),
  }),
  items: z.array(emitidoItemSchema),
  iva: z.array(
    z.object({ id: z.number().int(), alicuota: decimal, baseImp: decimal, importe: decimal }),
  ),
  tributos: z.array(
    z.object({
      id: z.number().int(),
      descripcion: z.string().optional(),
      baseImponible: decimal,
      alicuota: decimal,
      importe: decimal,
    }),
  ),
  totales: z.object({
    impTotal: decimal,
    impNeto: decimal,
    impIVA: decimal,
    impTrib: decimal,
    impTotConc: decimal,
    impOpEx: decimal,
  }),
  moneda: z.object({ id: z.string(), cotizacion: decimal }),
  comprobantesAsociados: z.array(
    z.object({
      cbteTipo: z.number().int(),
      ptoVta: z.number().int(),
      cbteNro: z.number().int(),
      cuit: z.string().optional(),
      cbteFch: z.string().optional(),
    }),
  ),
  opcionales: z.array(z.object({ id: z.string(), valor: z.string() })),
  cae: z.string().nullable(),
  caeVencimiento: z.string().nullable(),
  ...autorizacionShape,
  /** a CAEA voucher refused at informing: the authority's errors and observations */
  rechazo: rechazoSchema.optional(),
  /**
   * the RG 4892 QR URL of an authorized voucher (tipoCodAut A for a CAEA one, also while it is
   * still to be informed); null when rejected
   */
  qr: z.string().nullable(),
  /**
   * the issuer profile copied when the voucher was issued; null for a voucher issued before
   * vouchers kept it
   */
  emisor: emisorSchema.nullable(),
  /** what only an export voucher (types 19, 20, 21: WSFEXv1) carries */
  exportacion: z
    .object({
      /** 1 goods, 2 services, 4 other */
      tipoExpo: z.number().int(),
      permisoExistente: z.enum(["S", "N"]).optional(),
      permisos: z.array(z.object({ idPermiso: z.string(), dstMerc: z.number().int() })),
      /** the destination country's code (FEXGetPARAM_DST_pais) */
      dstCmp: z.number().int(),
      cliente: z.object({
        razonSocial: z.string(),
        domicilio: z.string(),
        /** the country's generic CUIT (FEXGetPARAM_DST_CUIT) */
        cuitPais: z.string().optional(),
        /** the client's own tax id in its country */
        idImpositivo: z.string().optional(),
      }),
      /** 1 Spanish, 2 English, 3 Portuguese: the language the voucher is printed in */
      idioma: z.number().int(),
      incoterms: z.string().optional(),
      incotermsDs: z.string().optional(),
      formaPago: z.string().optional(),
      fechaPago: fecha.optional(),
      obsComerciales: z.string().optional(),
      obs: z.string().optional(),
      /** "S": paid in the same foreign currency (CanMisMonExt) */
      canMisMonExt: z.enum(["S", "N"]).optional(),
      actividades: z.array(z.number().int()),
      /** the request id FEXAuthorize was sent with */
      id: z.number().int(),
    })
    .optional(),
});
export type Emitido = z.output<typeof emitidoSchema>;

/**
 * `wsfe.emitido.get`: the stored voucher of the account (bus header) named by all five fields
 *. Another account's voucher, one never issued through the gateway and one whose
 * outcome is not final answer the same COMPROBANTE_NOT_FOUND. The printed voucher reads it.
 */
export const emitidoGet = defineContract({
  subject: "wsfe.emitido.get",
  request: z
    .object({
      environment: environmentSchema,
      representada: representadaSchema,
      ptoVta: ptoVtaSchema,
      cbteTipo: issuedCbteTipoSchema,
      cbteNro: cbteNroSchema,
    })
    .strict(),
  reply: emitidoSchema,
  errors: ["COMPROBANTE_NOT_FOUND"],
  timeoutMs: 5_000,
  onSilence: "repeat",
  needsAccount: true,
});
