import { bind, type Binding } from "@pasarela/bus";
import { pdf } from "@pasarela/contracts";
import type { LinksRepository } from "./db/repositories/links.js";
import type { Documents } from "./flows/documents.js";
import { makeComprobanteRender } from "./handlers/comprobante-render.js";
import { makeLinkCreate, makeLinkOpen, type LinkDeps } from "./handlers/links.js";

/** Wiring only: the documents, the links repository and handlers bound to their subjects. */
export function pdfBindings(deps: {
  documents: Documents;
  links: LinksRepository;
  link: Omit<LinkDeps, "documents" | "links">;
}): Binding[] {
  const linkDeps = { ...deps.link, documents: deps.documents, links: deps.links };
  return [
    bind(pdf.comprobanteRender, makeComprobanteRender(deps.documents)),
    bind(pdf.linkCreate, makeLinkCreate(linkDeps)),
    bind(pdf.linkOpen, makeLinkOpen(linkDeps)),
  ];
}
