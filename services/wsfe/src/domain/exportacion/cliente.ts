import { isValidCuit, type catalog, type wsfe } from "@pasarela/contracts";
import { clienteReferenceNotFound, fail, invalidField, ok, type Result } from "@pasarela/errors";

/** The foreign customer as it goes to the authority and is kept with the voucher. */
export interface ClienteExterior {
  readonly razonSocial: string;
  readonly domicilio: string;
  /** the generic CUIT of the customer's country (FEXGetPARAM_DST_CUIT) */
  readonly cuitPais?: string;
  /** the customer's own tax id in its country */
  readonly idImpositivo?: string;
  readonly clienteId?: string;
}

type ClienteRequest = Pick<wsfe.ExportacionBody, "clienteId" | "cliente">;

/** A CUIT is the customer's country CUIT; any other document is its tax id at home. */
function storedIdentifiers(cliente: catalog.Cliente): {
  cuitPais?: string;
  idImpositivo?: string;
} {
  if (cliente.docTipo === 80) return { cuitPais: cliente.docNro };
  // 99/0 is the catalogue's "no document": nothing to identify the customer with
  if (cliente.docNro === "0") return {};
  return { idImpositivo: cliente.docNro };
}

/**
 * The customer of the account (`cliente`: what the catalog answered for `clienteId`, undefined
 * when it was not found), each value overridden by the one sent in `cliente` (explicit wins).
 * What is still missing is a 400 naming the field; the authority needs a name, an address and
 * one identifier [1580, 1650, 1660].
 */
export function resolveCliente(
  request: ClienteRequest,
  cliente: catalog.Cliente | undefined,
): Result<ClienteExterior> {
  const { clienteId } = request;
  if (clienteId !== undefined && cliente === undefined) {
    return fail(clienteReferenceNotFound(clienteId));
  }
  const stored = clienteId === undefined ? undefined : cliente;
  const sent = request.cliente ?? {};
  // a customer of the account always has a name; an address it may lack
  const razonSocial = sent.razonSocial ?? stored?.razonSocial;
  if (razonSocial === undefined) {
    return fail(
      invalidField("cliente.razonSocial", "es obligatorio: enviálo en cliente, o usá clienteId"),
    );
  }
  const domicilio = sent.domicilio ?? stored?.domicilio ?? undefined;
  if (domicilio === undefined) {
    return fail(
      invalidField(
        "cliente.domicilio",
        `es obligatorio en un comprobante de exportación: ${stored === undefined ? "enviálo en cliente, o usá clienteId" : "enviálo en cliente, o cargalo en el cliente"}`,
      ),
    );
  }
  const fromStore = stored === undefined ? {} : storedIdentifiers(stored);
  const cuitPais = sent.cuitPais ?? fromStore.cuitPais;
  const idImpositivo = sent.idImpositivo ?? fromStore.idImpositivo;
  if (sent.cuitPais !== undefined && !isValidCuit(sent.cuitPais)) {
    return fail(
      invalidField(
        "cliente.cuitPais",
        "no es una CUIT válida: deben ser 11 dígitos con dígito verificador correcto (la CUIT del país, FEXGetPARAM_DST_CUIT)",
      ),
    );
  }
  if (cuitPais === undefined && idImpositivo === undefined) {
    return fail(
      invalidField(
        "cliente.cuitPais",
        "es obligatorio si no se envía cliente.idImpositivo: la CUIT del país del cliente (FEXGetPARAM_DST_CUIT) o su identificación tributaria",
      ),
    );
  }
  return ok({
    razonSocial,
    domicilio,
    ...(cuitPais !== undefined ? { cuitPais } : {}),
    ...(idImpositivo !== undefined ? { idImpositivo } : {}),
    ...(clienteId !== undefined ? { clienteId } : {}),
  });
}
