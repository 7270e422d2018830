import { billing, type ReplyOf } from "@pasarela/contracts";
import { appError, invalidField } from "@pasarela/errors";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { EdgeError } from "../../http/edge-error.js";
import type { PanelContext } from "../context.js";
import { field, isUuid, queryParam } from "../form.js";
import { html } from "../html.js";
import { csrfField, notice, scrollBox, when } from "../layout.js";

type Key = ReplyOf<typeof billing.keyList>["keys"][number];

const SCOPES = { read_only: "Solo lectura", read_write: "Lectura y escritura" } as const;

/** What the redirect after creating a key carries, sealed, to the one page that shows it. */
const newKeySchema = z.object({
  keyId: z.string(),
  prefix: z.string(),
  secret: z.string(),
  scope: billing.keyScopeSchema,
});

/** API keys: list, create (the secret shown once), revoke after a confirmation. */
export function registerKeyPages(app: FastifyInstance, ctx: PanelContext): void {
  /** the account's key with this id; anything else is the uniform 404 page */
  async function ownKey(request: FastifyRequest, keyId: string): Promise<Key> {
    const session = ctx.session(request);
    if (!isUuid(keyId)) throw new EdgeError(appError("PANEL_NOT_FOUND"));
    const { keys } = await ctx.call(request, billing.keyList, { accountId: session.accountId });
    const key = keys.find((k) => k.keyId === keyId);
    if (!key) throw new EdgeError(appError("PANEL_NOT_FOUND"));
    return key;
  }

  app.get("/claves", async (request, reply) => {
    const session = ctx.session(request);
    const flashId = queryParam(request, "nueva");
    const flash =
      isUuid(flashId) && request.panelSessionId
        ? newKeySchema.safeParse(await ctx.sessions.takeFlash(request.panelSessionId, flashId))
        : undefined;
    const created = flash?.success ? flash.data : undefined;
    const revoked = queryParam(request, "revocada");
    const { keys } = await ctx.call(request, billing.keyList, { accountId: session.accountId });
    const csrf = ctx.csrf(request);
    const body = html` ${
        created
          ? html`<section class="card" aria-labelledby="nueva-clave">
              <h2 id="nueva-clave">Tu API key nueva</h2>
              ${notice(
                "warn",
                "Copiala ahora y guardala en un lugar seguro: es la única vez que se muestra. Si la perdés, creá otra y revocá esta.",
              )}
              <div class="secret">
                <input
                  id="secreto"
                  type="text"
                  readonly
                  value="${created.secret}"
                  aria-label="API key"
                />
                <button type="button" data-copy="#secreto">Copiar</button>
              </div>
              <p class="muted">
                Prefijo <code>${created.prefix}</code> · ${SCOPES[created.scope]}. Enviala como
                <code>Authorization: Bearer …</code>.
              </p>
            </section>`
          : flashId
            ? notice("warn", "La API key ya se mostró una vez y no se puede volver a ver.")
            : ""
      }
      ${revoked ? notice("ok", html`Revocaste la API key <code>${revoked}</code>.`) : ""}
      <form method="post" action="/panel/claves" class="card">
        ${csrfField(csrf)}
        <h2>Crear una API key</h2>
        <label for="scope">Alcance (no se puede cambiar después)</label>
        <select id="scope" name="scope">
          <option value="read_only">${SCOPES.read_only}: consultas</option>
          <option value="read_write">
            ${SCOPES.read_write}: emitir comprobantes y modificar datos
          </option>
        </select>
        <div class="actions"><button type="submit">Crear API key</button></div>
      </form>
      <h2>Tus API keys</h2>
      ${
        keys.length === 0
          ? html`<p class="muted">Todavía no creaste ninguna.</p>`
          : scrollBox(
              "API keys",
              html`<table>
                <thead>
                  <tr>
                    <th>Prefijo</th>
                    <th>Alcance</th>
                    <th>Creada</th>
                    <th>Último uso</th>
                    <th>Estado</th>
                    <th></th>
                  </tr>
                </thead>
                <tbody>
                  ${keys.map(
                    (key) =>
                      html`<tr>
                        <td><code>${key.prefix}</code></td>
                        <td>${SCOPES[key.scope]}</td>
                        <td>${when(key.createdAt)}</td>
                        <td>${when(key.lastUsedAt)}</td>
                        <td>
                          ${
                            key.revokedAt
                              ? html`<span class="badge muted"
                                  >Revocada ${when(key.revokedAt)}</span
                                >`
                              : html`<span class="badge ok">Activa</span>`
                          }
                        </td>
                        <td>
                          ${key.revokedAt ? "" : html`<a href="/panel/claves/${key.keyId}/revocar">Revocar</a>`}
                        </td>
                      </tr>`,
                  )}
                </tbody>
              </table>`,
            )
      }`;
    return ctx.render(reply, { title: "API keys", section: "claves", body, script: !!created });
  });

  app.post("/claves", async (request, reply) => {
    const session = ctx.session(request);
    const scope = billing.keyScopeSchema.safeParse(field(request, "scope"));
    if (!scope.success) {
      throw new EdgeError(invalidField("scope", 'debe ser "read_only" o "read_write"'));
    }
    const key = await ctx.call(request, billing.keyCreate, {
      accountId: session.accountId,
      scope: scope.data,
    });
    const flashId = await ctx.sessions.putFlash(request.panelSessionId!, {
      keyId: key.keyId,
      prefix: key.prefix,
      secret: key.secret,
      scope: key.scope,
    });
    return reply.redirect(`/panel/claves?nueva=${flashId}`, 303);
  });

  app.get<{ Params: { id: string } }>("/claves/:id/revocar", async (request, reply) => {
    const key = await ownKey(request, request.params.id);
    const body = key.revokedAt
      ? notice("ok", "Esta API key ya está revocada.")
      : html`<form method="post" action="/panel/claves/${key.keyId}/revocar" class="card">
          ${csrfField(ctx.csrf(request))}
          <p>
            ¿Revocar la API key <code>${key.prefix}</code> (${SCOPES[key.scope]}, creada
            ${when(key.createdAt)})?
          </p>
          ${notice("warn", "Deja de funcionar en la próxima llamada y no se puede deshacer.")}
          <div class="actions">
            <button type="submit" class="danger">Sí, revocar</button>
            <a class="button secondary" href="/panel/claves">Cancelar</a>
          </div>
        </form>`;
    return ctx.render(reply, { title: "Revocar API key", section: "claves", body });
  });

  app.post<{ Params: { id: string } }>("/claves/:id/revocar", async (request, reply) => {
    const key = await ownKey(request, request.params.id);
    await ctx.call(request, billing.keyRevoke, { keyId: key.keyId });
    return reply.redirect(`/panel/claves?revocada=${encodeURIComponent(key.prefix)}`, 303);
  });
}
