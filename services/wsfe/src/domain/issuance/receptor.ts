import { documentoProblem, type catalog, type wsfe } from "@pasarela/contracts";
import {
  clienteReferenceNotFound,
  clienteWithoutCondicionIva,
  fail,
  invalidField,
  ok,
  type Result,
} from "@pasarela/errors";

/** The receiver as it goes to the authority, with what the customer record adds for storage. */
export interface Receptor {
  readonly docTipo: number;
  /** digits without leading zeros; "0" for the unidentified consumidor final */
  readonly docNro: string;
  readonly condicionIvaReceptorId: number;
  readonly clienteId?: string;
  /** the customer's name and address at issue time, for the stored record and the PDF */
  readonly razonSocial?: string;
  readonly domicilio?: string;
}

type ReceptorRequest = Pick<
  wsfe.FacturaIssueRequest,
  "clienteId" | "docTipo" | "docNro" | "condicionIvaReceptorId"
>;

/**
 * The customer's stored values, each overridden by the one sent explicitly. `cliente` is what
 * the catalog answered for `clienteId` (undefined: not found, deleted or another account's).
 * `docTipo` and `docNro` travel together, so an explicit pair never mixes with half of a stored
 * one. A missing VAT condition is never inferred.
 */
export function resolveReceptor(
  request: ReceptorRequest,
  cliente: catalog.Cliente | undefined,
): Result<Receptor> {
  const { clienteId } = request;
  if (clienteId !== undefined && cliente === undefined) {
    return fail(clienteReferenceNotFound(clienteId));
  }
  const stored = clienteId === undefined ? undefined : cliente;
  if ((request.docTipo === undefined) !== (request.docNro === undefined)) {
    const missing = request.docTipo === undefined ? "docTipo" : "docNro";
    const sent = missing === "docTipo" ? "docNro" : "docTipo";
    return fail(invalidField(missing, `es obligatorio cuando se envía ${sent}: van juntos`));
  }
  const docTipo = request.docTipo ?? stored?.docTipo;
  const docNro = request.docNro ?? stored?.docNro;
  if (docTipo === undefined || docNro === undefined) {
    return fail(
      invalidField(
        "docTipo",
        "es obligatorio: enviá docTipo y docNro del receptor, o clienteId (consumidor final sin identificar: docTipo 99, docNro 0)",
      ),
    );
  }
  const documento = documentoProblem(docTipo, docNro);
  if (documento) return fail(documento);
  const condicionIvaReceptorId =
    request.condicionIvaReceptorId ?? stored?.condicionIvaReceptorId ?? undefined;
  if (condicionIvaReceptorId === undefined) {
    return fail(
      stored !== undefined && clienteId !== undefined
        ? clienteWithoutCondicionIva(clienteId)
        : invalidField(
            "condicionIvaReceptorId",
            "es obligatorio al emitir (RG 5616): enviálo, o cargalo en el cliente y usá clienteId",
          ),
    );
  }
  // the customer's name describes its own document, not one sent in its place
  const named = stored !== undefined && stored.docTipo === docTipo && stored.docNro === docNro;
  return ok({
    docTipo,
    docNro,
    condicionIvaReceptorId,
    ...(clienteId !== undefined ? { clienteId } : {}),
    ...(named ? { razonSocial: stored.razonSocial } : {}),
    ...(named && stored.domicilio !== null ? { domicilio: stored.domicilio } : {}),
  });
}
