import { createHash } from "node:crypto";
import type { Bus, HandlerContext } from "@pasarela/bus";
import { padron, ticket, type wsfe } from "@pasarela/contracts";
import { checkLogo, type LogoCheck, type LogoMediaType } from "@pasarela/logo";
import type { EmisoresRepository } from "../db/repositories/emisores.js";
import type { ComprobanteRef } from "../domain/comprobante-ref.js";
import { condicionIva } from "@pasarela/formato";

/** How long a print waits for the issuer's constancia before printing without it. */
const REGISTRY_WAIT_MS = 8_000;

/**
 * How long the registry's answer for an issuer is kept: a constancia for a day, no answer (not
 * delegated, registry down) for an hour, so prints do not log in at the authority each time.
 */
export const DEFAULT_REGISTRY_CACHE_MS = { hit: 86_400_000, miss: 3_600_000 };

/** How many logos' verdicts a pdf process remembers. */
const CHECKED_LOGOS = 256;

/**
 * checkLogo decodes every pixel and embeds the image once (hundreds of milliseconds for the
 * largest accepted logo), and its verdict depends on the bytes alone: each logo is judged once
 * per process, keyed by the hash of the bytes received, not of the name they were asked by.
 */
export function makeLogoJudge(
  check: typeof checkLogo = checkLogo,
): (mediaType: LogoMediaType, bytes: Buffer) => Promise<LogoCheck> {
  const verdicts = new Map<string, Promise<LogoCheck>>();
  return (mediaType, bytes) => {
    const key = `${mediaType}:${createHash("sha256").update(bytes).digest("hex")}`;
    let verdict = verdicts.get(key);
    if (verdict === undefined) {
      verdict = check(mediaType, bytes);
      if (verdicts.size >= CHECKED_LOGOS) {
        const oldest = verdicts.keys().next().value;
        if (oldest !== undefined) verdicts.delete(oldest);
      }
      verdicts.set(key, verdict);
    }
    return verdict;
  };
}

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

/** The profile of a voucher issued before vouchers kept theirs, as a voucher keeps it. */
function emisorOfPerfil(perfil: ticket.Perfil): ticket.Emisor {
  const { logo } = perfil;
  return {
    razonSocial: perfil.razonSocial,
    domicilioComercial: perfil.domicilioComercial,
    condicionIva: perfil.condicionIva,
    ingresosBrutos: perfil.ingresosBrutos,
    inicioActividades: perfil.inicioActividades,
    logo: logo && {
      mediaType: logo.mediaType,
      sha256: createHash("sha256").update(Buffer.from(logo.data, "base64")).digest("hex"),
    },
  };
}

/** Nothing known of the issuer: its CUIT prints in place of a name. */
const UNKNOWN: ticket.Emisor = {
  razonSocial: null,
  domicilioComercial: null,
  condicionIva: null,
  ingresosBrutos: null,
  inicioActividades: null,
  logo: null,
};

const complete = (emisor: ticket.Emisor): boolean =>
  emisor.razonSocial !== null && emisor.domicilioComercial !== null && emisor.condicionIva !== null;

export interface EmisoresDeps {
  bus: Pick<Bus, "request">;
  emisores: EmisoresRepository;
  /** how long the registry's answer for an issuer is kept (found, not found) */
  registryCacheMs?: Partial<typeof DEFAULT_REGISTRY_CACHE_MS>;
}

type Context = Pick<HandlerContext, "requestId" | "deadline" | "logger">;

/**
 * The issuer a voucher prints and its logo. `lasting` is false when something that may come
 * back could not be asked (ticket down): that print is answered but not stored, and nothing
 * is fixed, so a later print shows what it lacked.
 */
export interface IssuerPrint {
  readonly emisor: ticket.Emisor;
  readonly logo: Buffer | null;
  readonly lasting: boolean;
}

/**
 * The issuer on a voucher, the same on every copy and every re-render: fixed at the voucher's
 * first print from the profile copied when it was issued (the profile of that first print for
 * a voucher issued before vouchers kept it), with what it lacks taken from the issuer's
 * constancia. The logo comes from ticket by its SHA-256; one that does not decode is left
 * out, never failing the print.
 */
export function makeEmisores(deps: EmisoresDeps) {
  const options = (accountId: string, ctx: Context) => ({
    accountId,
    requestId: ctx.requestId,
    deadline: ctx.deadline,
  });

  const judgeLogo = makeLogoJudge();
  // the registry's answer per issuer, kept so prints do not ask the authority each time
  const registered = new Map<string, { fields: RegistryFields | null; until: number }>();
  const cacheMs = { ...DEFAULT_REGISTRY_CACHE_MS, ...deps.registryCacheMs };

  /**
   * The issuer's constancia when the registry can be asked (the representada delegated
   * ws_sr_constancia_inscripcion and padron answers in time).
   */
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

  /** What the issuer lacks, from the registry; the profile's own values always win. */
  async function withRegistry(
    accountId: string,
    emitido: wsfe.Emitido,
    emisor: ticket.Emisor,
    ctx: Context,
  ): Promise<ticket.Emisor> {
    if (complete(emisor)) return emisor;
    const registry = await registryFields(accountId, emitido, ctx);
    if (!registry) return emisor;
    return {
      ...emisor,
      razonSocial: emisor.razonSocial ?? registry.razonSocial,
      domicilioComercial: emisor.domicilioComercial ?? registry.domicilioComercial,
      condicionIva: emisor.condicionIva ?? registry.condicionIva,
    };
  }

  /** The issuer copied at issuance, or the profile now for a voucher that has none. */
  async function issuedOrCurrent(
    accountId: string,
    emitido: wsfe.Emitido,
    ctx: Context,
  ): Promise<{ emisor: ticket.Emisor; lasting: boolean }> {
    if (emitido.emisor) return { emisor: emitido.emisor, lasting: true };
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
    return { emisor: perfil ? emisorOfPerfil(perfil) : UNKNOWN, lasting };
  }

  /** The logo's bytes when they decode as pdfkit embeds them; none (and a warning) otherwise. */
  async function logoOf(
    accountId: string,
    ref: ComprobanteRef,
    logo: ticket.Emisor["logo"],
    ctx: Context,
  ): Promise<{ logo: Buffer | null; lasting: boolean }> {
    if (!logo) return { logo: null, lasting: true };
    const where = { representada: ref.representada, environment: ref.environment };
    const found = await deps.bus.request(
      ticket.logoGet,
      { cuit: ref.representada, environment: ref.environment, sha256: logo.sha256 },
      options(accountId, ctx),
    );
    if (!found.ok) {
      const lasting = found.error.code === "REPRESENTADA_NOT_FOUND";
      ctx.logger.warn(
        { ...where, code: found.error.code },
        "issuer logo unavailable: printing without it",
      );
      return { logo: null, lasting };
    }
    if (!found.value.logo) {
      ctx.logger.warn({ ...where, logo: logo.sha256 }, "issuer logo unknown: printing without it");
      return { logo: null, lasting: true };
    }
    const bytes = Buffer.from(found.value.logo.data, "base64");
    const checked = await judgeLogo(found.value.logo.mediaType, bytes);
    if (!checked.ok) {
      ctx.logger.warn(
        {
          ...where,
          representadaId: found.value.representadaId,
          logo: logo.sha256,
          problem: checked.problem,
        },
        "issuer logo does not decode: printing without it",
      );
      return { logo: null, lasting: true };
    }
    return { logo: bytes, lasting: true };
  }

  async function issuerOf(
    accountId: string,
    ref: ComprobanteRef,
    emitido: wsfe.Emitido,
    ctx: Context,
  ): Promise<IssuerPrint> {
    let emisor = await deps.emisores.find(accountId, ref);
    let lasting = true;
    if (!emisor) {
      const base = await issuedOrCurrent(accountId, emitido, ctx);
      const completed = await withRegistry(accountId, emitido, base.emisor, ctx);
      lasting = base.lasting;
      emisor = lasting ? await deps.emisores.fix(accountId, ref, completed) : completed;
    }
    const logo = await logoOf(accountId, ref, emisor.logo, ctx);
    return { emisor, logo: logo.logo, lasting: lasting && logo.lasting };
  }

  return { issuerOf };
}

export type Emisores = ReturnType<typeof makeEmisores>;
