import { fecha, fechaHora } from "@pasarela/formato";
import { CSS_PATH, FAVICON_PATH, JS_PATH } from "./assets.js";
import type { Html } from "./html.js";
import { html, type Interpolation } from "./html.js";

export type Section =
  | "uso"
  | "claves"
  | "webhooks"
  | "representadas"
  | "comprobantes"
  | "soporte"
  | "cuenta"
  | "public";

export interface PageUser {
  name: string;
  email: string;
  csrf: string;
}

export interface PageOptions {
  title: string;
  section: Section;
  /** the logged-in user; absent on the public pages (ingresar, registrarse, ...) */
  user?: PageUser | undefined;
  body: Interpolation;
  /** pages that copy to the clipboard load the panel's script */
  script?: boolean;
}

const NAV: { section: Section; href: string; label: string }[] = [
  { section: "uso", href: "/panel/uso", label: "Uso" },
  { section: "claves", href: "/panel/claves", label: "API keys" },
  { section: "webhooks", href: "/panel/webhooks", label: "Webhooks" },
  { section: "representadas", href: "/panel/representadas", label: "Representadas" },
  { section: "comprobantes", href: "/panel/comprobantes", label: "Comprobantes" },
  { section: "soporte", href: "/panel/soporte", label: "Soporte" },
  { section: "cuenta", href: "/panel/contrasena", label: "Contraseña" },
];

/** Hidden field every form of a logged-in page carries. */
export const csrfField = (token: string): Html =>
  html`<input type="hidden" name="_csrf" value="${token}" />`;

/**
 * A table that scrolls sideways inside its own box instead of widening the page: a named
 * region the keyboard can reach and scroll.
 */
export const scrollBox = (label: string, table: Html): Html =>
  html`<div class="table-scroll" role="region" aria-label="${label}" tabindex="0">${table}</div>`;

/**
 * The dark band on top. Below about 800 px the sections fold under a "Menú" button: a
 * <details> whose open state shows the sibling list (CSS only: the policy allows no inline
 * script), while "Salir" stays in the band.
 */
function header(options: PageOptions): Html {
  const { user } = options;
  if (!user) {
    return html`<header class="top"><a class="brand" href="/panel/ingresar">pasarela</a></header>`;
  }
  return html`<header class="top">
    <a class="brand" href="/panel/uso">pasarela</a>
    <details class="menu"><summary>Menú</summary></details>
    <div class="links">
      <nav aria-label="Secciones">
        ${NAV.map(
          (item) =>
            html`<a
              href="${item.href}"
              ${item.section === options.section ? html`aria-current="page"` : ""}
              >${item.label}</a
            >`,
        )}
      </nav>
      <span class="who" title="${user.name} · ${user.email}">${user.name} · ${user.email}</span>
    </div>
    <form method="post" action="/panel/salir">
      ${csrfField(user.csrf)}<button type="submit">Salir</button>
    </form>
  </header>`;
}

export function page(options: PageOptions): Html {
  const document = html`<!doctype html>
    <html lang="es-AR">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${options.title} · pasarela</title>
        <link rel="icon" type="image/svg+xml" href="${FAVICON_PATH}" />
        <link rel="stylesheet" href="${CSS_PATH}" />
        ${options.script ? html`<script src="${JS_PATH}" defer></script>` : ""}
      </head>
      <body>
        ${header(options)}
        <main class="${options.user ? "" : "narrow"}">
          <h1>${options.title}</h1>
          ${options.body}
        </main>
        <footer>pasarela · factura electrónica AFIP/ARCA</footer>
      </body>
    </html> `;
  return document;
}

export const notice = (kind: "ok" | "error" | "warn", text: Interpolation): Html =>
  html`<div class="notice ${kind}" role="${kind === "error" ? "alert" : "status"}">${text}</div>`;

/** Spaces that never break: a date stays on one line, in a narrow table column too. */
const unbroken = (text: string) => text.replace(/\s/g, "\u00a0");

/** A timestamp in Argentina's time, as people there read it: "26/11/2026 17:53". */
export const when = (iso: string | null | undefined): string =>
  iso ? unbroken(fechaHora(iso)) : "—";
/** Its Argentine calendar day: "26/11/2026". */
export const day = (iso: string | null | undefined): string => (iso ? unbroken(fecha(iso)) : "—");

/** The "desde"/"hasta" pair of a filter form, as AAAA-MM-DD dates. */
export const dateRangeFields = (filters: { desde: string; hasta: string }) =>
  html`<div>
      <label for="desde">Desde</label
      ><input id="desde" name="desde" type="date" value="${filters.desde}" />
    </div>
    <div>
      <label for="hasta">Hasta</label
      ><input id="hasta" name="hasta" type="date" value="${filters.hasta}" />
    </div>`;
