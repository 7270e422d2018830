import type { Bus, HandlerContext } from "@pasarela/bus";
import { padron, ticket, wsfe, type pdf } from "@pasarela/contracts";
import { appError, fail, ok, type Result } from "@pasarela/errors";
import type { PdfStore } from "./adapters/storage.js";
import { pdfFilename, type ComprobanteRef } from "./domain/comprobante-ref.js";
import { renderComprobante, type Fonts } from "./domain/layout.js";
import { condicionIva, type CopiaImpresa } from "./domain/tables.js";

const COPIAS_DE: Record<pdf.Copia, readonly CopiaImpresa[]> = {
  original: ["original"],
  duplicado: ["duplicado"],
  triplicado: ["triplicado"],
  todas: ["original", "duplicado", "triplicado"],
};

/** One file per account, voucher and copy: a voucher of another account never shares one. */
export function storeKey(accountId: string, ref: ComprobanteRef, copia: pdf.Copia): string {
  return [
    accountId,
    ref.environment,
    ref.representada,
    String(ref.ptoVta),
    String(ref.cbteTipo),
    `${ref.cbteNro}-${copia}.pdf`,
  ].join("/");
}

/** How long a print waits for the issuer's constancia before printing without it. */
const REGISTRY_WAIT_MS = 8_000;

/**
 * How long the registry's answer for an issuer is kept: a constancia for a day, no answer (not
 * delegated, registry down) for an hour, so prints do not log in at the authority each time.
 */
const DEFAULT_REGISTRY_CACHE_MS = { hit: 86_400_000, miss: 3_600_000 };

/** What a constancia says of the issuer, as the profile's fields. */
interface RegistryFields {
  readonly razonSocial: string | null;
  readonly domicilioComercial: string | null;
  readonly condicionIva: string | null;
}

function fieldsOfConstancia(registry: padron.Constancia): RegistryFields {
  const condicion = registry.condicionIvaReceptorId;
  return {
    razonSocial: padron.razonSocialDeConstancia(registry),
    domicilioComercial: padron.domicilioEnUnaLinea(
      registry.datosGenerales?.domicilioFiscal ?? null,
    ),
    condicionIva: condicion === null ? null : condicionIva(condicion),
  };
}

export interface DocumentsDeps {
  bus: Pick<Bus, "request">;
  store: PdfStore;
  fonts: Fonts;
  /** how long the registry's answer for an issuer is kept (found, not found) */
  registryCacheMs?: Partial<typeof DEFAULT_REGISTRY_CACHE_MS>;
}

type Context = Pick<HandlerContext, "requestId" | "deadline" | "logger">;

/**
 * The printed voucher of an account: served from storage when it was rendered before, else
 * read from wsfe (404 and 422 come from there), rendered with the issuer's profile and stored.
 * A profile that cannot be read prints what is known; a store or generator failure is a 502.
 */
export function makeDocuments(deps: DocumentsDeps) {
  const options = (accountId: string, ctx: Context) => ({
    accountId,
    requestId: ctx.requestId,
    deadline: ctx.deadline,
  });

  /** The stored voucher when it has a printed representation. */
  async function printable(
    accountId: string,
    ref: ComprobanteRef,
    ctx: Context,
  ): Promise<Result<wsfe.Emitido>> {
    const emitido = await deps.bus.request(wsfe.emitidoGet, ref, options(accountId, ctx));
    if (!emitido.ok) return emitido;
    if (emitido.value.state !== "authorized") return fail(appError("COMPROBANTE_RECHAZADO"));
    return emitido;
  }

  /**
   * The issuer's profile, completed from the registry. `lasting` is false when ticket could
   * not be asked: that print is answered but not stored, so a later one shows the profile.
   */
  async function perfilOf(
    accountId: string,
    emitido: wsfe.Emitido,
    ctx: Context,
  ): Promise<{ perfil: ticket.Perfil | null; lasting: boolean }> {
    const found = await deps.bus.request(
      ticket.perfilGet,
      { cuit: emitido.cuit, environment: emitido.environment },
      options(accountId, ctx),
    );
    // a representada removed since issuance has no profile; anything else is an outage
    const lasting = found.ok || found.error.code === "REPRESENTADA_NOT_FOUND";
    if (!lasting) {
      ctx.logger.warn(
        { code: found.error.code },
        "issuer profile unavailable: printing without it",
      );
    }
    const perfil = found.ok ? found.value.perfil : null;
    if (perfil?.razonSocial && perfil.domicilioComercial && perfil.condicionIva) {
      return { perfil, lasting };
    }
    return { perfil: await withRegistry(accountId, emitido, perfil, ctx), lasting };
  }

  /**
   * What the profile lacks, from the issuer's constancia when the registry can be asked (the
   * representada delegated ws_sr_constancia_inscripcion and padron answers in time); the
   * profile as it is otherwise. The profile's own values always win.
   */
  // the registry's answer per issuer, kept so prints do not ask the authority each time
  const registered = new Map<string, { fields: RegistryFields | null; until: number }>();
  const cacheMs = { ...DEFAULT_REGISTRY_CACHE_MS, ...deps.registryCacheMs };

  async function registryFields(
    accountId: string,
    emitido: wsfe.Emitido,
    ctx: Context,
  ): Promise<RegistryFields | null> {
    const key = `${accountId}|${emitido.environment}|${emitido.cuit}`;
    const cached = registered.get(key);
    if (cached && cached.until > Date.now()) return cached.fields;
    const constancia = await deps.bus.request(
      padron.constanciaGet,
      { environment: emitido.environment, representada: emitido.cuit, idPersona: emitido.cuit },
      { ...options(accountId, ctx), timeoutMs: REGISTRY_WAIT_MS },
    );
    if (!constancia.ok) {
      ctx.logger.debug({ code: constancia.error.code }, "no constancia for the issuer");
    }
    const fields = constancia.ok ? fieldsOfConstancia(constancia.value) : null;
    registered.set(key, { fields, until: Date.now() + (fields ? cacheMs.hit : cacheMs.miss) });
    return fields;
  }

  async function withRegistry(
    accountId: string,
    emitido: wsfe.Emitido,
    perfil: ticket.Perfil | null,
    ctx: Context,
  ): Promise<ticket.Perfil | null> {
    const registry = await registryFields(accountId, emitido, ctx);
    if (!registry) return perfil;
    return {
      razonSocial: perfil?.razonSocial ?? registry.razonSocial,
      domicilioComercial: perfil?.domicilioComercial ?? registry.domicilioComercial,
      condicionIva: perfil?.condicionIva ?? registry.condicionIva,
      ingresosBrutos: perfil?.ingresosBrutos ?? null,
      inicioActividades: perfil?.inicioActividades ?? null,
      logo: perfil?.logo ?? null,
      email: perfil?.email ?? null,
    };
  }

  async function document(
    accountId: string,
    ref: ComprobanteRef,
    copia: pdf.Copia,
    ctx: Context,
  ): Promise<Result<pdf.PdfDocument>> {
    const key = storeKey(accountId, ref, copia);
    const answer = (bytes: Buffer) =>
      ok({ filename: pdfFilename(ref), pdf: bytes.toString("base64") });
    let stored: Buffer | undefined;
    try {
      stored = await deps.store.read(key);
    } catch (error) {
      ctx.logger.error({ err: error }, "pdf store unreadable");
      return fail(appError("PDF_STORAGE_FAILED"));
    }
    if (stored) return answer(stored);

    const emitido = await printable(accountId, ref, ctx);
    if (!emitido.ok) return emitido;
    const { perfil, lasting } = await perfilOf(accountId, emitido.value, ctx);
    let bytes: Buffer;
    try {
      bytes = await renderComprobante(
        { emitido: emitido.value, perfil, copias: COPIAS_DE[copia] },
        deps.fonts,
      );
    } catch (error) {
      ctx.logger.error({ err: error }, "pdf rendering failed");
      return fail(appError("PDF_RENDER_FAILED"));
    }
    if (!lasting) return answer(bytes);
    try {
      await deps.store.write(key, bytes);
    } catch (error) {
      ctx.logger.error({ err: error }, "pdf store unwritable");
      return fail(appError("PDF_STORAGE_FAILED"));
    }
    return answer(bytes);
  }

  return { document, printable };
}

export type Documents = ReturnType<typeof makeDocuments>;
