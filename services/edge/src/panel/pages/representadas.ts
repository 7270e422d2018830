import { ticket, type ReplyOf } from "@pasarela/contracts";
import { appError } from "@pasarela/errors";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { EdgeError } from "../../http/edge-error.js";
import { statusOf } from "../../http/status.js";
import type { PanelContext } from "../context.js";
import { field, isUuid, queryParam } from "../form.js";
import { html, type Html, type Interpolation } from "../html.js";
import { csrfField, day, notice, when } from "../layout.js";

type Detalle = ReplyOf<typeof ticket.cuentaRepresentadaGet>;
type Resumen = ReplyOf<typeof ticket.cuentaRepresentadaList>["representadas"][number];
type Probe = ReplyOf<typeof ticket.conexionVerify>;
type Estado = NonNullable<Resumen["certificado"]>["estado"];

const ENVIRONMENTS = { homologacion: "Homologación", produccion: "Producción" } as const;
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

/** Empty text is "clear this field" (null); anything else is sent as typed. */
const orNull = (value: string) => (value.trim() === "" ? null : value.trim());

/** Representadas y certificados: create (CSR), upload the certificate, probe, edit the profile. */
export function registerRepresentadaPages(app: FastifyInstance, ctx: PanelContext): void {
  const createForm = (csrf: string, values: Record<string, string>) =>
    html` <form method="post" action="/panel/representadas" class="card">
      ${csrfField(csrf)}
      <h2>Nueva representada</h2>
      <div class="grid2">
        <div>
          <label for="cuit">CUIT</label>
          <input
            id="cuit"
            name="cuit"
            type="text"
            inputmode="numeric"
            pattern="\\d{11}"
            maxlength="11"
            required
            value="${values.cuit}"
          />
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
          <label for="alias">Alias del certificado (opcional)</label>
          <input id="alias" name="alias" type="text" maxlength="50" value="${values.alias}" />
        </div>
        <div>
          <label for="ptoVta">Punto de venta (opcional)</label>
          <input
            id="ptoVta"
            name="ptoVta"
            type="number"
            min="1"
            max="99998"
            value="${values.ptoVta}"
          />
        </div>
      </div>
      <p class="muted">
        Generamos la clave privada (queda guardada cifrada) y el pedido de certificado (CSR) para
        presentar en la AFIP.
      </p>
      <div class="actions"><button type="submit">Crear y generar CSR</button></div>
    </form>`;

  const listPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    values: Record<string, string>,
    message?: Interpolation,
    status = 200,
  ) => {
    const { representadas } = await ctx.call(request, ticket.cuentaRepresentadaList, {});
    const groups = (Object.keys(ENVIRONMENTS) as (keyof typeof ENVIRONMENTS)[]).map(
      (environment) => ({
        environment,
        items: representadas.filter((r) => r.environment === environment),
      }),
    );
    const body = html` ${message}
    ${groups.map(
      (group) =>
        html`<h2>${ENVIRONMENTS[group.environment]}</h2>
          ${
            group.items.length === 0
              ? html`<p class="muted">
                  Ninguna representada en ${ENVIRONMENTS[group.environment].toLowerCase()}.
                </p>`
              : html`<table>
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
                          <td class="mono">${r.cuit}</td>
                          <td>${r.alias}</td>
                          <td>${r.ptoVta ?? "—"}</td>
                          <td>${badge(r)}</td>
                          <td>${day(r.certificado?.notAfter)}</td>
                          <td><a href="/panel/representadas/${r.representadaId}">Ver</a></td>
                        </tr>`,
                    )}
                  </tbody>
                </table>`
          }`,
    )}
    ${createForm(ctx.csrf(request), values)}`;
    return ctx.render(
      reply,
      { title: "Representadas y certificados", section: "representadas", body },
      status,
    );
  };

  app.get("/representadas", (request, reply) =>
    listPage(request, reply, { cuit: "", environment: "homologacion", alias: "", ptoVta: "" }),
  );

  app.post("/representadas", async (request, reply) => {
    const values = {
      cuit: field(request, "cuit").trim(),
      environment: field(request, "environment"),
      alias: field(request, "alias").trim(),
      ptoVta: field(request, "ptoVta").trim(),
    };
    const environment = values.environment === "produccion" ? "produccion" : "homologacion";
    const result = await ctx.ask(request, ticket.cuentaRepresentadaCreate, {
      cuit: values.cuit,
      environment,
      ...(values.alias ? { alias: values.alias } : {}),
      ...(values.ptoVta ? { ptoVta: Number(values.ptoVta) } : {}),
    });
    if (!result.ok) {
      return listPage(
        request,
        reply,
        values,
        notice("error", result.error.message),
        statusOf(result.error),
      );
    }
    return reply.redirect(`/panel/representadas/${result.value.representadaId}?creada=1`, 303);
  });

  async function own(request: FastifyRequest<{ Params: { id: string } }>): Promise<Detalle> {
    if (!isUuid(request.params.id)) throw new EdgeError(appError("PANEL_NOT_FOUND"));
    return ctx.call(request, ticket.cuentaRepresentadaGet, { representadaId: request.params.id });
  }

  const probeResults = (probe: Probe) =>
    html`<section class="card" id="prueba">
      <h2>Prueba de conexión</h2>
      ${
        probe.ok
          ? notice("ok", "Todos los servicios respondieron: la representada está lista.")
          : notice("warn", "Algún servicio no está listo: seguí el paso indicado y volvé a probar.")
      }
      <table>
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
                <td class="mono">${s.service}</td>
                <td>
                  ${s.ok ? html`<span class="badge ok">OK</span>` : html`<span class="badge bad">${s.code}</span> ${s.error}`}
                </td>
                <td>${s.ok ? "" : s.fix}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </section>`;

  const detailPage = (
    request: FastifyRequest,
    reply: FastifyReply,
    r: Detalle,
    extra: { message?: Interpolation; probe?: Probe; status?: number } = {},
  ) => {
    const csrf = ctx.csrf(request);
    const p = r.perfil;
    const base = `/panel/representadas/${r.representadaId}`;
    const body = html` ${extra.message}
      ${queryParam(request, "creada") ? notice("ok", "Representada creada. Presentá el CSR en la AFIP y subí el certificado que te devuelva.") : ""}
      <div class="card">
        <p>
          <strong class="mono">${r.cuit}</strong> · ${ENVIRONMENTS[r.environment]} · alias
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
      ${extra.probe ? probeResults(extra.probe) : ""}
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
        <div class="grid2">
          <div>
            <label for="razonSocial">Razón social</label
            ><input
              id="razonSocial"
              name="razonSocial"
              type="text"
              maxlength="200"
              value="${p.razonSocial ?? ""}"
            />
          </div>
          <div>
            <label for="domicilioComercial">Domicilio comercial</label
            ><input
              id="domicilioComercial"
              name="domicilioComercial"
              type="text"
              maxlength="300"
              value="${p.domicilioComercial ?? ""}"
            />
          </div>
          <div>
            <label for="condicionIva">Condición frente al IVA</label
            ><input
              id="condicionIva"
              name="condicionIva"
              type="text"
              maxlength="80"
              value="${p.condicionIva ?? ""}"
            />
          </div>
          <div>
            <label for="ingresosBrutos">Ingresos Brutos</label
            ><input
              id="ingresosBrutos"
              name="ingresosBrutos"
              type="text"
              maxlength="40"
              value="${p.ingresosBrutos ?? ""}"
            />
          </div>
          <div>
            <label for="inicioActividades">Inicio de actividades (AAAAMMDD)</label
            ><input
              id="inicioActividades"
              name="inicioActividades"
              type="text"
              pattern="\\d{8}"
              maxlength="8"
              value="${p.inicioActividades ?? ""}"
            />
          </div>
          <div>
            <label for="emailPerfil">E-mail para respuestas</label
            ><input id="emailPerfil" name="email" type="email" value="${p.email ?? ""}" />
          </div>
          <div>
            <label for="ptoVtaPerfil">Punto de venta</label
            ><input
              id="ptoVtaPerfil"
              name="ptoVta"
              type="number"
              min="1"
              max="99998"
              value="${r.ptoVta ?? ""}"
            />
          </div>
        </div>
        <div class="actions"><button type="submit">Guardar perfil</button></div>
      </form>
      <p><a href="/panel/representadas">Volver a representadas</a></p>`;
    return ctx.render(
      reply,
      { title: `Representada ${r.cuit}`, section: "representadas", body },
      extra.status ?? 200,
    );
  };

  type ById = { Params: { id: string } };

  app.get<ById>("/representadas/:id", async (request, reply) =>
    detailPage(request, reply, await own(request)),
  );

  app.get<ById>("/representadas/:id/csr", async (request, reply) => {
    const r = await own(request);
    if (!r.csr) throw new EdgeError(appError("PANEL_NOT_FOUND"));
    return reply
      .type("application/pkcs10")
      .header("content-disposition", `attachment; filename="${r.cuit}-${r.alias}.csr"`)
      .send(r.csr);
  });

  app.post<ById>("/representadas/:id/certificado", async (request, reply) => {
    const r = await own(request);
    const certificate = (
      field(request, "certificadoArchivo") || field(request, "certificado")
    ).trim();
    const privateKey = field(request, "claveArchivo").trim();
    if (!certificate) {
      const missing = appError("CERTIFICATE_MISSING");
      return detailPage(request, reply, r, {
        message: notice("error", missing.message),
        status: statusOf(missing),
      });
    }
    const result = await ctx.ask(request, ticket.cuentaCertificadoCreate, {
      representadaId: r.representadaId,
      certificate,
      ...(privateKey ? { privateKey } : {}),
    });
    if (!result.ok) {
      return detailPage(request, reply, r, {
        message: notice("error", result.error.message),
        status: statusOf(result.error),
      });
    }
    const fresh = await own(request);
    return detailPage(request, reply, fresh, {
      message: html`${notice("ok", html`Certificado activo hasta ${when(result.value.notAfter)}.`)}
      ${result.value.warning ? notice("warn", result.value.warning.message) : ""}`,
    });
  });

  app.post<ById>("/representadas/:id/probar", async (request, reply) => {
    const r = await own(request);
    const result = await ctx.ask(request, ticket.conexionVerify, {
      representadaId: r.representadaId,
    });
    if (!result.ok) {
      return detailPage(request, reply, r, {
        message: notice("error", result.error.message),
        status: statusOf(result.error),
      });
    }
    return detailPage(request, reply, r, { probe: result.value });
  });

  app.post<ById>("/representadas/:id/perfil", async (request, reply) => {
    const r = await own(request);
    const ptoVta = field(request, "ptoVta").trim();
    const result = await ctx.ask(request, ticket.cuentaRepresentadaUpdate, {
      representadaId: r.representadaId,
      ptoVta: ptoVta ? Number(ptoVta) : null,
      razonSocial: orNull(field(request, "razonSocial")),
      domicilioComercial: orNull(field(request, "domicilioComercial")),
      condicionIva: orNull(field(request, "condicionIva")),
      ingresosBrutos: orNull(field(request, "ingresosBrutos")),
      inicioActividades: orNull(field(request, "inicioActividades")),
      email: orNull(field(request, "email")),
    });
    if (!result.ok) {
      return detailPage(request, reply, r, {
        message: notice("error", result.error.message),
        status: statusOf(result.error),
      });
    }
    return detailPage(request, reply, result.value, { message: notice("ok", "Perfil guardado.") });
  });
}
