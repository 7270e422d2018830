import type { ticket, wsfe } from "@pasarela/contracts";
import type { CopiaImpresa } from "./tables.js";

/** What a printed voucher is made of: the stored voucher, its issuer and the issuer's logo. */
export interface Impresion {
  readonly emitido: wsfe.Emitido;
  readonly perfil: ticket.Emisor | null;
  /** the logo's bytes, already known to decode; none prints the issuer's name instead */
  readonly logo?: Uint8Array | null;
  readonly copias: readonly CopiaImpresa[];
}
