import { ticket, wsfe } from "@pasarela/contracts";
import { appError } from "@pasarela/errors";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { EdgeError } from "../../http/edge-error.js";
import { statusOf } from "../../http/status.js";
import type { PanelContext } from "../context.js";
import { problemOf, type FormProblem } from "../fields.js";
import { field, isUuid, queryParam } from "../form.js";
import { html } from "../html.js";
import { notice, when } from "../layout.js";
import type { Caeas } from "./contingencia-view.js";
import { detailView, listView, type Detalle } from "./representadas-views.js";

/** Empty text is "clear this field" (null); anything else is sent as typed. */
const orNull = (value: string) => (value.trim() === "" ? null : value.trim());

/** Representadas y certificados: create (CSR), upload the certificate, probe, edit the profile. */
export function registerRepresentadaPages(app: FastifyInstance, ctx: PanelContext): void {
  const listPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    values: Record<string, string>,
    problem?: FormProblem,
    status = 200,
  ) => {
    const { representadas } = await ctx.call(request, ticket.cuentaRepresentadaList, {});
    const body = listView(representadas, ctx.csrf(request), values, problem);
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
      return listPage(request, reply, values, problemOf(result.error), statusOf(result.error));
    }
    return reply.redirect(`/panel/representadas/${result.value.representadaId}?creada=1`, 303);
  });

  async function own(request: FastifyRequest<{ Params: { id: string } }>): Promise<Detalle> {
    if (!isUuid(request.params.id)) throw new EdgeError(appError("PANEL_NOT_FOUND"));
    return ctx.call(request, ticket.cuentaRepresentadaGet, { representadaId: request.params.id });
  }

  /** The fortnights' CAEAs, asked of wsfe only while contingency is on; a refusal is shown. */
  const caeasOf = async (request: FastifyRequest, r: Detalle): Promise<Caeas | undefined> => {
    if (!r.contingencia.caea) return undefined;
    const caeas = await ctx.ask(request, wsfe.caeaList, {
      environment: r.environment,
      representada: r.cuit,
    });
    return caeas.ok ? caeas.value : { error: caeas.error.message };
  };

  const detailPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    r: Detalle,
    extra: Parameters<typeof detailView>[2] & { status?: number } = {},
  ) => {
    const body = detailView(r, ctx.csrf(request), {
      ...extra,
      caeas: await caeasOf(request, r),
      creada: Boolean(queryParam(request, "creada")),
    });
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
        certificateProblem: problemOf(missing),
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
        certificateProblem: problemOf(result.error),
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
      // a date field sends aaaa-mm-dd; the profile keeps AAAAMMDD, as the authority writes it
      inicioActividades: orNull(field(request, "inicioActividades").replaceAll("-", "")),
      email: orNull(field(request, "email")),
    });
    if (!result.ok) {
      return detailPage(request, reply, r, {
        problem: problemOf(result.error),
        status: statusOf(result.error),
      });
    }
    return detailPage(request, reply, result.value, { message: notice("ok", "Perfil guardado.") });
  });
}
