import type { Idioma } from "@pasarela/formato";
import type { CopiaImpresa } from "./tables.js";

/**
 * Every label the printed voucher shares between classes, one table per language. Domestic
 * vouchers print the Spanish one; an export voucher (class E) prints the one of its `idioma`.
 * Amounts and dates read the Argentine way in every language: the voucher is an Argentine one
 * and its amounts are the ones the authority authorized.
 */
export interface Etiquetas {
  readonly copias: Readonly<Record<CopiaImpresa, string>>;
  /** an export voucher's title by type: 19, 20, 21 */
  readonly titulos: Readonly<Record<number, string>>;
  readonly razonSocial: string;
  readonly domicilioComercial: string;
  readonly condicionIva: string;
  readonly puntoVenta: string;
  readonly compNro: string;
  readonly fechaEmision: string;
  readonly cuit: string;
  readonly ingresosBrutos: string;
  readonly inicioActividades: string;
  readonly periodoDesde: string;
  readonly periodoHasta: string;
  readonly vtoPago: string;
  readonly comprobanteAsociado: string;
  /** an export voucher by type and letter, as an associated voucher names it */
  readonly tipos: Readonly<Record<number, string>>;
  /** the sign before a voucher's number */
  readonly numero: string;
  /** "Factura E N° 00003-00000042 del 20/11/2026": the word before the date */
  readonly del: string;
  readonly autorizado: string;
  readonly descargo: string;
  readonly cae: string;
  readonly vtoCae: string;
  /** a voucher issued in contingency is authorized by the fortnight's CAEA: it says so */
  readonly caea: string;
  readonly vtoCaea: string;
  readonly pagina: string;
  // the export voucher's own
  readonly cliente: string;
  readonly domicilio: string;
  readonly clienteExterior: string;
  readonly paisDestino: string;
  readonly idImpositivo: string;
  readonly cuitPais: string;
  readonly tipoExportacion: string;
  readonly incoterms: string;
  readonly formaPago: string;
  readonly fechaPago: string;
  readonly permisoEmbarque: string;
  readonly destinoMercaderia: string;
  readonly moneda: string;
  readonly cotizacion: string;
  readonly columnas: {
    readonly codigo: string;
    readonly descripcion: string;
    readonly cantidad: string;
    readonly unidad: string;
    readonly precio: string;
    readonly bonificacion: string;
    readonly subtotal: string;
  };
  readonly importeTotal: string;
  readonly obsComerciales: string;
  readonly observaciones: string;
}

const ES: Etiquetas = {
  copias: { original: "ORIGINAL", duplicado: "DUPLICADO", triplicado: "TRIPLICADO" },
  titulos: {
    19: "FACTURA DE EXPORTACIÓN",
    20: "NOTA DE DÉBITO DE EXPORTACIÓN",
    21: "NOTA DE CRÉDITO DE EXPORTACIÓN",
  },
  razonSocial: "Razón Social",
  domicilioComercial: "Domicilio Comercial",
  condicionIva: "Condición frente al IVA",
  puntoVenta: "Punto de Venta",
  compNro: "Comp. Nro",
  fechaEmision: "Fecha de Emisión",
  cuit: "CUIT",
  ingresosBrutos: "Ingresos Brutos",
  inicioActividades: "Fecha de Inicio de Actividades",
  periodoDesde: "Período Facturado Desde",
  periodoHasta: "Hasta",
  vtoPago: "Fecha de Vto. para el pago",
  comprobanteAsociado: "Comprobante Asociado",
  tipos: { 19: "Factura E", 20: "Nota de Débito E", 21: "Nota de Crédito E" },
  numero: "N°",
  del: "del",
  autorizado: "Comprobante Autorizado",
  descargo:
    "Esta Administración Federal no se responsabiliza por los datos ingresados en el detalle de la operación",
  cae: "CAE N°",
  vtoCae: "Fecha de Vto. de CAE",
  caea: "CAEA N°",
  vtoCaea: "Fecha de Vto. de CAEA",
  pagina: "Pág.",
  cliente: "Apellido y Nombre / Razón Social",
  domicilio: "Domicilio",
  clienteExterior: "Cliente del Exterior",
  paisDestino: "País de destino",
  idImpositivo: "ID Impositivo",
  cuitPais: "CUIT País",
  tipoExportacion: "Tipo de exportación",
  incoterms: "Incoterms",
  formaPago: "Forma de pago",
  fechaPago: "Fecha de pago",
  permisoEmbarque: "Permiso de embarque",
  destinoMercaderia: "destino",
  moneda: "Moneda",
  cotizacion: "Cotización",
  columnas: {
    codigo: "Código",
    descripcion: "Producto / Servicio",
    cantidad: "Cantidad",
    unidad: "U. Medida",
    precio: "Precio Unit.",
    bonificacion: "Bonif.",
    subtotal: "Subtotal",
  },
  importeTotal: "Importe Total",
  obsComerciales: "Observaciones comerciales",
  observaciones: "Observaciones",
};

const EN: Etiquetas = {
  copias: { original: "ORIGINAL", duplicado: "DUPLICATE", triplicado: "TRIPLICATE" },
  titulos: { 19: "EXPORT INVOICE", 20: "EXPORT DEBIT NOTE", 21: "EXPORT CREDIT NOTE" },
  razonSocial: "Company name",
  domicilioComercial: "Business address",
  condicionIva: "VAT status",
  puntoVenta: "Point of sale",
  compNro: "Number",
  fechaEmision: "Issue date",
  cuit: "CUIT",
  ingresosBrutos: "Gross income tax No.",
  inicioActividades: "Start of activities",
  periodoDesde: "Billed period from",
  periodoHasta: "To",
  vtoPago: "Payment due date",
  comprobanteAsociado: "Related voucher",
  tipos: { 19: "Export Invoice E", 20: "Export Debit Note E", 21: "Export Credit Note E" },
  numero: "No.",
  del: "dated",
  autorizado: "Authorized voucher",
  descargo:
    "The Federal Administration is not responsible for the data entered in the details of the transaction",
  cae: "CAE No.",
  vtoCae: "CAE due date",
  caea: "CAEA No.",
  vtoCaea: "CAEA due date",
  pagina: "Page",
  cliente: "Customer",
  domicilio: "Address",
  clienteExterior: "Foreign customer",
  paisDestino: "Destination country",
  idImpositivo: "Tax ID",
  cuitPais: "Country CUIT",
  tipoExportacion: "Export type",
  incoterms: "Incoterms",
  formaPago: "Payment terms",
  fechaPago: "Payment date",
  permisoEmbarque: "Shipping permit",
  destinoMercaderia: "destination",
  moneda: "Currency",
  cotizacion: "Exchange rate",
  columnas: {
    codigo: "Code",
    descripcion: "Product / Service",
    cantidad: "Quantity",
    unidad: "Unit",
    precio: "Unit price",
    bonificacion: "Discount",
    subtotal: "Subtotal",
  },
  importeTotal: "Total amount",
  obsComerciales: "Commercial remarks",
  observaciones: "Remarks",
};

const PT: Etiquetas = {
  copias: { original: "ORIGINAL", duplicado: "DUPLICATA", triplicado: "TRIPLICATA" },
  titulos: {
    19: "FATURA DE EXPORTAÇÃO",
    20: "NOTA DE DÉBITO DE EXPORTAÇÃO",
    21: "NOTA DE CRÉDITO DE EXPORTAÇÃO",
  },
  razonSocial: "Razão social",
  domicilioComercial: "Endereço comercial",
  condicionIva: "Condição perante o IVA",
  puntoVenta: "Ponto de venda",
  compNro: "Número",
  fechaEmision: "Data de emissão",
  cuit: "CUIT",
  ingresosBrutos: "Inscrição IIBB",
  inicioActividades: "Início de atividades",
  periodoDesde: "Período faturado de",
  periodoHasta: "Até",
  vtoPago: "Vencimento do pagamento",
  comprobanteAsociado: "Comprovante associado",
  tipos: {
    19: "Fatura de Exportação E",
    20: "Nota de Débito de Exportação E",
    21: "Nota de Crédito de Exportação E",
  },
  numero: "Nº",
  del: "de",
  autorizado: "Comprovante autorizado",
  descargo:
    "Esta Administração Federal não se responsabiliza pelos dados informados no detalhe da operação",
  cae: "CAE Nº",
  vtoCae: "Vencimento do CAE",
  caea: "CAEA Nº",
  vtoCaea: "Vencimento do CAEA",
  pagina: "Pág.",
  cliente: "Nome / Razão social",
  domicilio: "Endereço",
  clienteExterior: "Cliente do exterior",
  paisDestino: "País de destino",
  idImpositivo: "Identificação fiscal",
  cuitPais: "CUIT do país",
  tipoExportacion: "Tipo de exportação",
  incoterms: "Incoterms",
  formaPago: "Forma de pagamento",
  fechaPago: "Data de pagamento",
  permisoEmbarque: "Permissão de embarque",
  destinoMercaderia: "destino",
  moneda: "Moeda",
  cotizacion: "Cotação",
  columnas: {
    codigo: "Código",
    descripcion: "Produto / Serviço",
    cantidad: "Quantidade",
    unidad: "Unidade",
    precio: "Preço unit.",
    bonificacion: "Desconto",
    subtotal: "Subtotal",
  },
  importeTotal: "Valor total",
  obsComerciales: "Observações comerciais",
  observaciones: "Observações",
};

export const ETIQUETAS: Readonly<Record<Idioma, Etiquetas>> = { es: ES, en: EN, pt: PT };
