import type { ticket, ReplyOf } from "@pasarela/contracts";
import { CONDICIONES_IVA_EMISOR, ENTORNOS, numeroDocumento, servicioWeb } from "@pasarela/formato";
import { formError, inputField, invalidAttributes, type FormProblem } from "../fields.js";
import { html, type Html, type Interpolation } from "../html.js";
import { csrfField, day, notice, scrollBox, when } from "../layout.js";
import { contingenciaView, type Caeas } from "./contingencia-view.js";

/**
 * What the representadas pages show: the list with its creation form, and one representada
 * with its certificate, connection probe and issuer profile (its contingency card is in
 * contingencia-view.ts). Pure views; the routes that fetch and change the data are in
 * representadas.ts.
 */

export type Detalle = ReplyOf<typeof ticket.cuentaRepresentadaGet>;
export type Resumen = ReplyOf<typeof ticket.cuentaRepresentadaList>["representadas"][number];
export type Probe = ReplyOf<typeof ticket.conexionVerify>;
type Estado = NonNullable<Resumen["certificado"]>["estado"];

export const ENVIRONMENTS = ENTORNOS;
/** A CUIT as people write it: 30-00000000-7. */
const cuitText = (cuit: string) => numeroDocumento(80, cuit);
const ESTADOS: Record<Estado, Html> = {
  pendiente: html`<span class="badge warn">CSR pendiente</span>`,
  activo: html`<span class="badge ok">Activo</span>`,
  por_vencer: html`<span class="badge warn">Vence en menos de 30 días</span>`,
  vencido: html`<span class="badge bad">Vencido</span>`,
};

const badge = (r: Pick<Resumen, "certificado">) =>
  r.certificado
    ? ESTADOS[r.certificado.estado]
    : html`<span class="badge muted">Sin certificado</span>`;

/** The creation form's fields: a refusal about one of them is shown beside it. */
const CREATE_FIELDS = ["cuit", "environment", "alias", "ptoVta"];

/** Representadas y certificados: create (CSR), upload the certificate, probe, edit the profile. */
export const createForm = (
  csrf: string,
  values: Record<string, string>,
  problem?: FormProblem,
): Html =>
  html` <form method="post" action="/panel/representadas" class="card">
    ${csrfField(csrf)} ${formError(problem, CREATE_FIELDS)}
    <h2>Nueva representada</h2>
    <div class="grid2">
      <div>
        ${inputField({
          name: "cuit",
          label: "CUIT",
          value: values.cuit,
          problem,
          attributes: html`type="text" inputmode="numeric" pattern="\\d{11}" maxlength="11" required`,
        })}
      </div>
      <div>
        <label for="environment">Entorno</label>
        <select id="environment" name="environment">
          ${Object.entries(ENVIRONMENTS).map(
            ([value, label]) =>
              html`<option value="${value}" ${values.environment === value ? html`selected` : ""}>
                ${label}
              </option>`,
          )}
        </select>
      </div>
      <div>
        ${inputField({
          name: "alias",
          label: "Alias del certificado (opcional)",
          value: values.alias,
          problem,
          attributes: html`type="text" maxlength="50"`,
        })}
      </div>
      <div>
        ${inputField({
          name: "ptoVta",
          label: "Punto de venta (opcional)",
          value: values.ptoVta,
          problem,
          attributes: html`type="number" min="1" max="99998"`,
        })}
      </div>
    </div>
    <p class="muted">
      Generamos la clave privada (queda guardada cifrada) y el pedido de certificado (CSR) para
      presentar en la AFIP.
    </p>
    <div class="actions"><button type="submit">Crear y generar CSR</button></div>
  </form>`;
/** The issuer profile's fields: a refusal about one of them is shown beside it. */
const PERFIL_FIELDS = [
  "razonSocial",
  "domicilioComercial",
  "condicionIva",
  "ingresosBrutos",
  "inicioActividades",
  "email",
  "ptoVta",
];

/** The VAT conditions to choose from, with a profile's own when it is none of them. */
const condicionesIva = (current: string | null): readonly string[] =>
  current && !CONDICIONES_IVA_EMISOR.includes(current)
    ? [...CONDICIONES_IVA_EMISOR, current]
    : CONDICIONES_IVA_EMISOR;

/** AAAAMMDD as a date field's value (aaaa-mm-dd); anything else leaves the field empty. */
const isoDay = (aaaammdd: string | null): string =>
  aaaammdd && /^\d{8}$/.test(aaaammdd)
    ? `${aaaammdd.slice(0, 4)}-${aaaammdd.slice(4, 6)}-${aaaammdd.slice(6, 8)}`
    : "";

/** Representadas grouped by environment, then the form that creates one. */
export function listView(
  representadas: readonly Resumen[],
  csrf: string,
  values: Record<string, string>,
  problem?: FormProblem,
): Html {
  const groups = (Object.keys(ENVIRONMENTS) as (keyof typeof ENVIRONMENTS)[]).map(
    (environment) => ({
      environment,
      items: representadas.filter((r) => r.environment === environment),
    }),
  );
  return html`${groups.map(
    (group) =>
      html`<h2>${ENVIRONMENTS[group.environment]}</h2>
        ${
          group.items.length === 0
            ? html`<p class="muted">
                Ninguna representada en ${ENVIRONMENTS[group.environment].toLowerCase()}.
              </p>`
            : scrollBox(
                `Representadas en ${ENVIRONMENTS[group.environment].toLowerCase()}`,
                html`<table>
                  <thead>
                    <tr>
                      <th>CUIT</th>
                      <th>Alias</th>
                      <th>Punto de venta</th>
                      <th>Certificado</th>
                      <th>Vence</th>
                      <th></th>
                    </tr>
                  </thead>
                  <tbody>
                    ${group.items.map(
                      (r) =>
                        html`<tr
                          class="${r.certificado?.estado === "por_vencer" ? "expiring" : ""}"
                        >
                          <td class="mono">${cuitText(r.cuit)}</td>
                          <td>${r.alias}</td>
                          <td>${r.ptoVta ?? "—"}</td>
                          <td>${badge(r)}</td>
                          <td>${day(r.certificado?.notAfter)}</td>
                          <td><a href="/panel/representadas/${r.representadaId}">Ver</a></td>
                        </tr>`,
                    )}
                  </tbody>
                </table>`,
              )
        }`,
  )}
  ${createForm(csrf, values, problem)}`;
}

const probeResults = (probe: Probe): Html =>
  html`<section class="card" id="prueba">
    <h2>Prueba de conexión</h2>
    ${
      probe.ok
        ? notice("ok", "Todos los servicios respondieron: la representada está lista.")
        : notice("warn", "Algún servicio no está listo: seguí el paso indicado y volvé a probar.")
    }
    ${scrollBox(
      "Prueba de conexión",
      html`<table>
        <thead>
          <tr>
            <th>Servicio</th>
            <th>Resultado</th>
            <th>Cómo se arregla</th>
          </tr>
        </thead>
        <tbody>
          ${probe.servicios.map(
            (s) =>
              html`<tr>
                <td>
                  <code>${s.service}</code> <small class="muted">${servicioWeb(s.service)}</small>
                </td>
                <td>
                  ${s.ok ? html`<span class="badge ok">Listo</span>` : html`<span class="badge bad">Sin acceso</span> ${s.error} <small class="mono muted">${s.code}</small>`}
                </td>
                <td>${s.ok ? "" : s.fix}</td>
              </tr>`,
          )}
        </tbody>
      </table>`,
    )}
  </section>`;
/** One representada: its certificate, the probe's results, the CSR, the upload and the profile. */
export function detailView(
  r: Detalle,
  csrf: string,
  extra: {
    message?: Interpolation;
    probe?: Probe;
    /** the fortnights' CAEAs, read while contingency is on */
    caeas?: Caeas;
    creada?: boolean;
    /** a refusal of the issuer profile, shown beside its field */
    problem?: FormProblem;
    /** a refusal of the certificate sent, shown in its form */
    certificateProblem?: FormProblem;
  },
): Html {
  const p = r.perfil;
  const base = `/panel/representadas/${r.representadaId}`;
  return html` ${extra.message}
    ${extra.creada ? notice("ok", "Representada creada. Presentá el CSR en la AFIP y subí el certificado que te devuelva.") : ""}
    <div class="card">
      <p>
        <strong class="mono">${cuitText(r.cuit)}</strong> · ${ENVIRONMENTS[r.environment]} · alias
        <code>${r.alias}</code> · punto de venta ${r.ptoVta ?? "—"}
      </p>
      <p>
        Certificado: ${badge(r)}
        ${r.certificado?.notAfter ? html`· vence ${when(r.certificado.notAfter)}` : ""}
      </p>
      <form method="post" action="${base}/probar">
        ${csrfField(csrf)} <button type="submit" class="secondary">Probar conexión</button>
      </form>
    </div>
    ${extra.probe ? probeResults(extra.probe) : ""} ${contingenciaView(r, extra.caeas)}
    ${
      r.csr
        ? html`<section class="card">
            <h2>Pedido de certificado (CSR)</h2>
            <p>
              Presentalo en
              ${r.environment === "homologacion" ? "WSASS (Autogestión Certificados Homologación)" : "Administración de Certificados Digitales"}
              con el alias <code>${r.alias}</code>.
            </p>
            <textarea id="csr" readonly aria-label="CSR">${r.csr}</textarea>
            <div class="actions">
              <a class="button secondary" href="${base}/csr" download>Descargar .csr</a>
            </div>
          </section>`
        : ""
    }
    <form method="post" action="${base}/certificado" enctype="multipart/form-data" class="card">
      ${csrfField(csrf)}
      <h2>Subir certificado</h2>
      ${extra.certificateProblem ? notice("error", extra.certificateProblem.message) : ""}
      <p class="muted">
        El certificado (.crt/.pem) que la AFIP emitió para el CSR. Si generaste el par fuera de
        pasarela, subí también su clave privada: el CSR pendiente se cancela.
      </p>
      <div class="grid2">
        <div>
          <label for="certificadoArchivo">Archivo del certificado</label>
          <input
            id="certificadoArchivo"
            name="certificadoArchivo"
            type="file"
            accept=".crt,.pem,.cer,.txt"
          />
        </div>
        <div>
          <label for="claveArchivo">Clave privada (solo par externo)</label>
          <input id="claveArchivo" name="claveArchivo" type="file" accept=".key,.pem,.txt" />
        </div>
      </div>
      <label for="certificado">o pegá el certificado PEM</label>
      <textarea
        id="certificado"
        name="certificado"
        placeholder="-----BEGIN CERTIFICATE-----"
      ></textarea>
      <div class="actions"><button type="submit">Subir certificado</button></div>
    </form>
    <form method="post" action="${base}/perfil" class="card">
      ${csrfField(csrf)}
      <h2>Perfil del emisor (para los PDF)</h2>
      ${formError(extra.problem, PERFIL_FIELDS)}
      <div class="grid2">
        <div>
          ${inputField({
            name: "razonSocial",
            label: "Razón social",
            value: p.razonSocial ?? "",
            problem: extra.problem,
            attributes: html`type="text" maxlength="200"`,
          })}
        </div>
        <div>
          ${inputField({
            name: "domicilioComercial",
            label: "Domicilio comercial",
            value: p.domicilioComercial ?? "",
            problem: extra.problem,
            attributes: html`type="text" maxlength="300"`,
          })}
        </div>
        <div>
          <label for="condicionIva">Condición frente al IVA</label
          ><select
            id="condicionIva"
            name="condicionIva"
            ${invalidAttributes("condicionIva", extra.problem)}
          >
            <option value="">Sin indicar</option>
            ${condicionesIva(p.condicionIva).map(
              (nombre) =>
                html`<option value="${nombre}" ${nombre === p.condicionIva ? html`selected` : ""}>
                  ${nombre}
                </option>`,
            )}
          </select>
        </div>
        <div>
          ${inputField({
            name: "ingresosBrutos",
            label: "Ingresos Brutos",
            value: p.ingresosBrutos ?? "",
            problem: extra.problem,
            attributes: html`type="text" maxlength="40"`,
          })}
        </div>
        <div>
          ${inputField({
            name: "inicioActividades",
            label: "Inicio de actividades",
            value: isoDay(p.inicioActividades),
            problem: extra.problem,
            attributes: html`type="date"`,
          })}
        </div>
        <div>
          ${inputField({
            id: "emailPerfil",
            name: "email",
            label: "E-mail para respuestas",
            value: p.email ?? "",
            problem: extra.problem,
            attributes: html`type="email"`,
          })}
        </div>
        <div>
          ${inputField({
            id: "ptoVtaPerfil",
            name: "ptoVta",
            label: "Punto de venta",
            value: r.ptoVta ?? "",
            problem: extra.problem,
            attributes: html`type="number" min="1" max="99998"`,
          })}
        </div>
      </div>
      <div class="actions"><button type="submit">Guardar perfil</button></div>
    </form>
    <p><a href="/panel/representadas">Volver a representadas</a></p>`;
}
