import { appError, type AppError } from "@pasarela/errors";
import { billing } from "@pasarela/contracts";
import type { FastifyInstance } from "fastify";
import { retryAfterOf, statusOf } from "../../http/status.js";
import type { PanelContext } from "../context.js";
import { field, queryParam } from "../form.js";
import {
  fieldError,
  formError,
  inputField,
  invalidAttributes,
  problemOf,
  type FormProblem,
} from "../fields.js";
import { html, type Interpolation } from "../html.js";
import { csrfField, notice } from "../layout.js";
import { clearSessionCookie, setSessionCookie } from "../plugin.js";

const PUBLIC = { config: { panelPublic: true } } as const;

/** A new password and its repetition, with the sign-up rules the browser can check. */
const newPasswordFields = (label: string, repeat: string, problem?: FormProblem) =>
  html`<label for="password">${label}</label>
    <input
      id="password"
      name="password"
      type="password"
      autocomplete="new-password"
      required
      minlength="10"
      ${invalidAttributes("password", problem)}
    />
    ${fieldError("password", problem)}
    <label for="password2">${repeat}</label>
    <input
      id="password2"
      name="password2"
      type="password"
      autocomplete="new-password"
      required
      minlength="10"
      ${invalidAttributes("password2", problem)}
    />
    ${fieldError("password2", problem)}`;

const SIGNUP_FIELDS = ["accountName", "name", "email", "password", "password2"];
const PASSWORD_FIELDS = ["current", "password", "password2"];

/** Sign-up, login, logout, password change and reset: the session's whole life. */
export function registerAuthPages(app: FastifyInstance, ctx: PanelContext): void {
  const loginForm = (csrf: string, email: string, message?: Interpolation) =>
    html` ${message}
      <form method="post" action="/panel/ingresar" class="card">
        ${csrfField(csrf)}
        <label for="email">E-mail</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="username"
          required
          value="${email}"
        />
        <label for="password">Contraseña</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="current-password"
          required
        />
        <div class="actions">
          <button type="submit">Ingresar</button> <a href="/panel/olvide">Olvidé mi contraseña</a>
        </div>
      </form>
      <p>¿No tenés cuenta? <a href="/panel/registrarse">Registrate</a></p>`;

  app.get("/ingresar", PUBLIC, (request, reply) => {
    if (request.panelSession) return reply.redirect("/panel/uso", 303);
    const done = queryParam(request, "listo");
    const message =
      done === "restablecida"
        ? notice("ok", "Tu contraseña cambió. Ingresá con la nueva.")
        : done === "salida"
          ? notice("ok", "Cerraste la sesión.")
          : undefined;
    return ctx.render(reply, {
      title: "Ingresar",
      section: "public",
      body: loginForm(ctx.csrf(request), "", message),
    });
  });

  app.post("/ingresar", PUBLIC, async (request, reply) => {
    const email = field(request, "email");
    const result = await ctx.ask(request, billing.userLogin, {
      email,
      password: field(request, "password"),
      ip: request.ip,
    });
    if (!result.ok) {
      const retryAfter = retryAfterOf(result.error);
      if (retryAfter !== undefined) void reply.header("retry-after", retryAfter);
      return ctx.render(
        reply,
        {
          title: "Ingresar",
          section: "public",
          body: loginForm(ctx.csrf(request), email, notice("error", result.error.message)),
        },
        statusOf(result.error),
      );
    }
    if (request.panelSession) await ctx.sessions.revoke(request.panelSession.idHash);
    const id = await ctx.sessions.create(result.value);
    setSessionCookie(reply, ctx.settings, id);
    return reply.redirect("/panel/uso", 303);
  });

  const signupForm = (csrf: string, values: Record<string, string>, problem?: FormProblem) =>
    html` ${formError(problem, SIGNUP_FIELDS)}
      <form method="post" action="/panel/registrarse" class="card">
        ${csrfField(csrf)}
        ${inputField({
          name: "accountName",
          label: "Nombre de la cuenta (tu empresa)",
          value: values.accountName,
          problem,
          attributes: html`type="text" required maxlength="200"`,
        })}
        ${inputField({
          name: "name",
          label: "Tu nombre",
          value: values.name,
          problem,
          attributes: html`type="text" autocomplete="name" required maxlength="200"`,
        })}
        ${inputField({
          name: "email",
          label: "E-mail",
          value: values.email,
          problem,
          attributes: html`type="email" autocomplete="username" required`,
        })}
        ${newPasswordFields("Contraseña (10 caracteres o más)", "Repetí la contraseña", problem)}
        <div class="actions"><button type="submit">Crear cuenta</button></div>
      </form>
      <p>¿Ya tenés cuenta? <a href="/panel/ingresar">Ingresá</a></p>`;

  app.get("/registrarse", PUBLIC, (request, reply) =>
    ctx.render(reply, {
      title: "Crear una cuenta",
      section: "public",
      body: signupForm(ctx.csrf(request), { accountName: "", name: "", email: "" }),
    }),
  );

  app.post("/registrarse", PUBLIC, async (request, reply) => {
    const values = {
      accountName: field(request, "accountName"),
      name: field(request, "name"),
      email: field(request, "email"),
    };
    const password = field(request, "password");
    const again = (error: AppError) =>
      ctx.render(
        reply,
        {
          title: "Crear una cuenta",
          section: "public",
          body: signupForm(ctx.csrf(request), values, problemOf(error)),
        },
        statusOf(error),
      );
    if (password !== field(request, "password2")) return again(appError("PASSWORDS_DIFFER"));
    const result = await ctx.ask(request, billing.userSignup, { ...values, password });
    if (!result.ok) return again(result.error);
    const id = await ctx.sessions.create({
      userId: result.value.userId,
      accountId: result.value.accountId,
      name: values.name.trim(),
      email: values.email.trim().toLowerCase(),
    });
    setSessionCookie(reply, ctx.settings, id);
    return reply.redirect("/panel/claves", 303);
  });

  app.post("/salir", async (request, reply) => {
    await ctx.sessions.revoke(ctx.session(request).idHash);
    clearSessionCookie(reply, ctx.settings);
    return reply.redirect("/panel/ingresar?listo=salida", 303);
  });

  const passwordForm = (csrf: string, message?: Interpolation, problem?: FormProblem) =>
    html` ${message} ${formError(problem, PASSWORD_FIELDS)}
      <form method="post" action="/panel/contrasena" class="card">
        ${csrfField(csrf)}
        <label for="current">Contraseña actual</label>
        <input
          id="current"
          name="current"
          type="password"
          autocomplete="current-password"
          required
          ${invalidAttributes("current", problem)}
        />
        ${fieldError("current", problem)}
        ${newPasswordFields(
          "Contraseña nueva (10 caracteres o más)",
          "Repetí la contraseña nueva",
          problem,
        )}
        <p class="muted">Al cambiarla se cierran todas tus otras sesiones.</p>
        <div class="actions"><button type="submit">Cambiar contraseña</button></div>
      </form>`;

  app.get("/contrasena", (request, reply) =>
    ctx.render(reply, {
      title: "Cambiar contraseña",
      section: "cuenta",
      body: passwordForm(ctx.csrf(request)),
    }),
  );

  app.post("/contrasena", async (request, reply) => {
    const session = ctx.session(request);
    const again = (message: Interpolation, status: number, problem?: FormProblem) =>
      ctx.render(
        reply,
        {
          title: "Cambiar contraseña",
          section: "cuenta",
          body: passwordForm(ctx.csrf(request), message, problem),
        },
        status,
      );
    const refused = (error: AppError) => again(undefined, statusOf(error), problemOf(error));
    const password = field(request, "password");
    if (password !== field(request, "password2")) return refused(appError("PASSWORDS_DIFFER"));
    const result = await ctx.ask(request, billing.userPasswordChange, {
      userId: session.userId,
      current: field(request, "current"),
      password,
    });
    if (!result.ok) return refused(result.error);
    // every session of the user ends, this one too; this browser gets a fresh one
    await ctx.sessions.revokeUser(session.userId);
    const id = await ctx.sessions.create(session);
    setSessionCookie(reply, ctx.settings, id);
    request.panelSession = (await ctx.sessions.find(id)) ?? session;
    request.panelSessionId = id;
    return again(notice("ok", "Tu contraseña cambió. Se cerraron tus otras sesiones."), 200);
  });

  const forgotForm = (csrf: string, message?: Interpolation) =>
    html` ${message}
      <form method="post" action="/panel/olvide" class="card">
        ${csrfField(csrf)}
        <p>Te enviamos por e-mail un enlace para elegir una contraseña nueva. Vale 60 minutos.</p>
        <label for="email">E-mail</label>
        <input id="email" name="email" type="email" autocomplete="username" required />
        <div class="actions">
          <button type="submit">Enviar enlace</button>
          <a href="/panel/ingresar">Volver a ingresar</a>
        </div>
      </form>`;

  app.get("/olvide", PUBLIC, (request, reply) =>
    ctx.render(reply, {
      title: "Olvidé mi contraseña",
      section: "public",
      body: forgotForm(ctx.csrf(request)),
    }),
  );

  app.post("/olvide", PUBLIC, async (request, reply) => {
    const result = await ctx.ask(request, billing.userResetRequest, {
      email: field(request, "email"),
      baseUrl: ctx.settings.publicUrl(),
    });
    // the same answer whether the address exists or not; a refusal or an outage says so
    return ctx.render(
      reply,
      {
        title: "Olvidé mi contraseña",
        section: "public",
        body: forgotForm(
          ctx.csrf(request),
          result.ok
            ? notice("ok", "Si el e-mail corresponde a un usuario, te enviamos el enlace.")
            : notice("error", result.error.message),
        ),
      },
      result.ok ? 200 : statusOf(result.error),
    );
  });

  const resetForm = (csrf: string, token: string, problem?: FormProblem) =>
    html` ${formError(problem, ["password", "password2"])}
      <form method="post" action="/panel/restablecer" class="card">
        ${csrfField(csrf)}
        <input type="hidden" name="token" value="${token}" />
        ${newPasswordFields(
          "Contraseña nueva (10 caracteres o más)",
          "Repetí la contraseña nueva",
          problem,
        )}
        <div class="actions"><button type="submit">Guardar contraseña</button></div>
      </form>`;

  app.get("/restablecer", PUBLIC, (request, reply) =>
    ctx.render(reply, {
      title: "Elegí una contraseña nueva",
      section: "public",
      body: resetForm(ctx.csrf(request), queryParam(request, "token").slice(0, 200)),
    }),
  );

  app.post("/restablecer", PUBLIC, async (request, reply) => {
    const token = field(request, "token");
    const password = field(request, "password");
    const again = (error: AppError) =>
      ctx.render(
        reply,
        {
          title: "Elegí una contraseña nueva",
          section: "public",
          body: resetForm(ctx.csrf(request), token, problemOf(error)),
        },
        statusOf(error),
      );
    if (password !== field(request, "password2")) return again(appError("PASSWORDS_DIFFER"));
    const result = await ctx.ask(request, billing.userResetComplete, { token, password });
    if (!result.ok) return again(result.error);
    await ctx.sessions.revokeUser(result.value.userId);
    return reply.redirect("/panel/ingresar?listo=restablecida", 303);
  });
}
