import { randomUUID } from "node:crypto";
import { connectBus, consumeDurable, done, type Bus, type Durable } from "@pasarela/bus";
import { billing, mail } from "@pasarela/contracts";
import { startTracing } from "@pasarela/telemetry";
import { capturingLogger, fileInfra, type FileInfra } from "@pasarela/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, startBilling } from "../src/index.js";

const MINUTE = 60_000;
const PASSWORD = "una clave larga 123";
const BASE_URL = "https://pasarela.example.com";

type Outcome<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } };

/**
 * Dashboard users and support tickets against real NATS and PostgreSQL, with billing's clock in
 * the test's hands (throttle windows, reset-link expiry) and the e-mails billing queues read
 * straight from their work queue.
 */
describe("billing: dashboard users, login throttle, password reset and support", () => {
  let infra: FileInfra;
  let client: Bus;
  let stop: () => Promise<void>;
  let jobs: Durable;
  let clock = Date.now();
  const mails: mail.MensajeJob[] = [];
  const { logger, lines } = capturingLogger("billing");

  beforeAll(async () => {
    infra = await fileInfra();
    const config = loadConfig({
      NATS_URL: infra.natsUrl,
      NATS_PREFIX: infra.prefix,
      DATABASE_URL: infra.databaseUrl,
      CURSOR_KEY: "Y3Vyc29yLXRlc3Qta2V5LWN1cnNvci10ZXN0LWtleSE=",
      API_KEY_PEPPER: "test-pepper-test-pepper-test-pepper-0123",
    });
    const service = await startBilling(config, logger, { now: () => new Date(clock) });
    stop = service.stop;
    client = await connectBus({
      url: infra.natsUrl,
      prefix: infra.prefix,
      name: "test",
      logger,
      tracer: startTracing({ service: "test" }).tracer,
    });
    jobs = await consumeDurable(client, [mail.mensajeJob], {
      durable: "test",
      logger,
      handle: (batch) => {
        mails.push(...batch.map((job) => job.body));
        return Promise.resolve(done);
      },
    });
  });

  afterAll(async () => {
    await jobs?.stop();
    await client?.close();
    await stop?.();
    await infra?.cleanup();
  });

  const value = <T>(result: Outcome<T>): T => {
    if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
    return result.value;
  };
  const error = <T>(result: Outcome<T>) => {
    if (result.ok) throw new Error("expected a failure");
    return result.error as { code: string; message: string; details?: Record<string, unknown> };
  };

  const email = () => `u-${randomUUID().slice(0, 8)}@Ejemplo.com.ar`;
  const ip = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.1`;

  async function signup(address = email(), password = PASSWORD) {
    const ids = value(
      await client.request(billing.userSignup, {
        accountName: "Kiosco El Sol",
        name: "Ana Pérez",
        email: address,
        password,
      }),
    );
    return { ...ids, email: address.toLowerCase() };
  }

  const login = (address: string, password: string, from = "192.0.2.1") =>
    client.request(billing.userLogin, { email: address, password, ip: from });

  async function mailTo(to: string, count = 1): Promise<mail.MensajeJob[]> {
    for (let i = 0; i < 100; i++) {
      const found = mails.filter((m) => m.to === to);
      if (found.length >= count) return found;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no e-mail to ${to}`);
  }

  describe("sign-up, login, user data", () => {
    it("creates an account and its owner; the e-mail is compared without case", async () => {
      const address = email();
      const { accountId, userId } = await signup(address);
      const user = value(await client.request(billing.userGet, { userId }));
      expect(user).toEqual({
        userId,
        accountId,
        accountName: "Kiosco El Sol",
        name: "Ana Pérez",
        email: address.toLowerCase(),
        role: "owner",
      });
      // the account is a billing account like any other: on the default plan
      const usage = value(await client.request(billing.accountUsage, { accountId }));
      expect(usage.plan.name).toBe("inicial");

      const again = await client.request(billing.userSignup, {
        accountName: "Otra",
        name: "Otra persona",
        email: ` ${address.toUpperCase()} `,
        password: PASSWORD,
      });
      expect(error(again)).toMatchObject({
        code: "USER_EMAIL_TAKEN",
        message: "Ya existe un usuario con ese e-mail",
      });

      const ok = value(await login(address.toUpperCase(), PASSWORD, ip()));
      expect(ok).toEqual({ userId, accountId, name: "Ana Pérez", email: address.toLowerCase() });
    });

    it("says the password's length rule", async () => {
      for (const password of ["corta", "x".repeat(201)]) {
        const refused = error(
          await client.request(billing.userSignup, {
            accountName: "Cuenta",
            name: "Nombre",
            email: email(),
            password,
          }),
        );
        expect(refused.code).toBe("INVALID_FIELD");
        expect(refused.message).toBe("El campo password debe tener entre 10 y 200 caracteres");
      }
      const unknown = error(await client.request(billing.userGet, { userId: randomUUID() }));
      expect(unknown.code).toBe("USER_NOT_FOUND");
    });

    it("answers an unknown e-mail and a wrong password alike, in comparable time", async () => {
      const { email: address } = await signup();
      const wrong: number[] = [];
      const unknown: number[] = [];
      for (let i = 0; i < 3; i++) {
        let started = performance.now();
        const a = error(await login(address, "no es la clave", ip()));
        wrong.push(performance.now() - started);
        started = performance.now();
        const b = error(await login(email(), "no es la clave", ip()));
        unknown.push(performance.now() - started);
        expect(a).toEqual({ code: "INVALID_CREDENTIALS", message: "Credenciales inválidas" });
        expect(b).toEqual(a);
      }
      const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[1]!;
      // both pay for one scrypt: the unknown address is not answered at once
      expect(median(unknown)).toBeGreaterThan(median(wrong) * 0.4);
    });

    it("adds a member to an existing account (operator)", async () => {
      const { accountId } = await signup();
      expect(
        error(
          await client.request(billing.userAdd, {
            accountId: randomUUID(),
            name: "Nadie",
            email: email(),
            password: PASSWORD,
          }),
        ).code,
      ).toBe("ACCOUNT_NOT_FOUND");
      const address = email();
      const { userId } = value(
        await client.request(billing.userAdd, {
          accountId,
          name: "Beto",
          email: address,
          password: PASSWORD,
        }),
      );
      expect(value(await client.request(billing.userGet, { userId }))).toMatchObject({
        accountId,
        role: "member",
      });
      expect(value(await login(address, PASSWORD, ip())).accountId).toBe(accountId);
      expect(
        error(
          await client.request(billing.userAdd, {
            accountId,
            name: "Beto",
            email: address,
            password: PASSWORD,
          }),
        ).code,
      ).toBe("USER_EMAIL_TAKEN");
    });

    it("answers who signed an account up, never a member, to be told about it by e-mail", async () => {
      const owner = await signup();
      await client.request(billing.userAdd, {
        accountId: owner.accountId,
        name: "Beto",
        email: email(),
        password: PASSWORD,
      });
      expect(
        value(await client.request(billing.accountOwnerGet, { accountId: owner.accountId })),
      ).toEqual({
        userId: owner.userId,
        accountId: owner.accountId,
        accountName: "Kiosco El Sol",
        name: "Ana Pérez",
        email: owner.email,
      });
      const unknown = await client.request(billing.accountOwnerGet, { accountId: randomUUID() });
      expect(error(unknown).code).toBe("USER_NOT_FOUND");
    });
  });

  describe("login throttle", () => {
    it("throttles an address after 5 failures from any IP, until the window lets it go", async () => {
      const { email: address } = await signup();
      for (let i = 0; i < 5; i++) {
        expect(error(await login(address, "no es la clave", ip())).code).toBe(
          "INVALID_CREDENTIALS",
        );
      }
      // even the right password waits: the throttle is checked first
      const throttled = error(await login(address, PASSWORD, ip()));
      expect(throttled.code).toBe("LOGIN_THROTTLED");
      expect(throttled.details?.retryAfterSeconds).toBe(900);
      expect(throttled.message).toContain("probá de nuevo en 900 s");
      // another address from the same IPs is not affected
      const other = await signup();
      expect(value(await login(other.email, PASSWORD, ip())).userId).toBe(other.userId);

      clock += 15 * MINUTE + 1_000;
      expect(value(await login(address, PASSWORD, ip())).email).toBe(address);
    });

    it("forgets an address's failures after a successful login", async () => {
      const { email: address } = await signup();
      for (let i = 0; i < 4; i++) error(await login(address, "no es la clave", ip()));
      value(await login(address, PASSWORD, ip()));
      for (let i = 0; i < 4; i++) {
        expect(error(await login(address, "no es la clave", ip())).code).toBe(
          "INVALID_CREDENTIALS",
        );
      }
      expect(value(await login(address, PASSWORD, ip())).email).toBe(address);
    });

    it("throttles an IP after 20 failures over any addresses", async () => {
      const from = "198.51.100.7";
      const { email: address } = await signup();
      for (let i = 0; i < 20; i++) {
        expect(error(await login(email(), "no es la clave", from)).code).toBe(
          "INVALID_CREDENTIALS",
        );
        clock += 10_000;
      }
      const throttled = error(await login(address, PASSWORD, from));
      expect(throttled.code).toBe("LOGIN_THROTTLED");
      // free again when the oldest failure leaves the 15-minute window
      expect(throttled.details?.retryAfterSeconds).toBe(15 * 60 - 200);
      // the same user from elsewhere is not affected
      value(await login(address, PASSWORD, ip()));
      clock += (15 * 60 - 200) * 1_000;
      value(await login(address, PASSWORD, from));
    });
  });

  describe("passwords", () => {
    it("changes the password only with the current one", async () => {
      const { userId, email: address } = await signup();
      const wrong = error(
        await client.request(billing.userPasswordChange, {
          userId,
          current: "no es la clave",
          password: "otra clave larga",
        }),
      );
      expect(wrong).toEqual({ code: "INVALID_CREDENTIALS", message: "Credenciales inválidas" });
      value(
        await client.request(billing.userPasswordChange, {
          userId,
          current: PASSWORD,
          password: "otra clave larga",
        }),
      );
      expect(error(await login(address, PASSWORD, ip())).code).toBe("INVALID_CREDENTIALS");
      expect(value(await login(address, "otra clave larga", ip())).userId).toBe(userId);
    });

    it("e-mails a single-use reset link, and says nothing of unknown addresses", async () => {
      const unknown = email().toLowerCase();
      expect(
        value(
          await client.request(billing.userResetRequest, { email: unknown, baseUrl: BASE_URL }),
        ),
      ).toEqual({});

      const { userId, email: address } = await signup();
      for (let i = 0; i < 5; i++) error(await login(address, "no es la clave", ip()));
      expect(
        value(
          await client.request(billing.userResetRequest, {
            email: address,
            baseUrl: `${BASE_URL}/`,
          }),
        ),
      ).toEqual({});
      const [message] = await mailTo(address);
      expect(message!.subject).toBe("Restablecé tu contraseña de la pasarela");
      expect(message!.text).toContain("Hola Ana Pérez:");
      const link = /https:\/\/\S+/.exec(message!.text)![0];
      expect(link).toMatch(
        /^https:\/\/pasarela\.example\.com\/panel\/restablecer\?token=[A-Za-z0-9_-]{43}$/,
      );
      const token = new URL(link).searchParams.get("token")!;

      const short = error(
        await client.request(billing.userResetComplete, { token, password: "corta" }),
      );
      expect(short.code).toBe("INVALID_FIELD");
      expect(
        value(
          await client.request(billing.userResetComplete, {
            token,
            password: "clave restablecida",
          }),
        ),
      ).toEqual({ userId });
      // the reset also lifts the address's throttle
      expect(value(await login(address, "clave restablecida", ip())).userId).toBe(userId);

      const reused = error(
        await client.request(billing.userResetComplete, { token, password: "otra vez la clave" }),
      );
      expect(reused.code).toBe("RESET_TOKEN_INVALID");
      const made = error(
        await client.request(billing.userResetComplete, {
          token: "x".repeat(43),
          password: "otra vez la clave",
        }),
      );
      expect(made).toEqual(reused);
      expect(mails.some((m) => m.to === unknown)).toBe(false);
      // neither the token nor the passwords reach the logs
      const logged = lines.join("\n");
      for (const secret of [token, PASSWORD, "clave restablecida", "no es la clave"]) {
        expect(logged).not.toContain(secret);
      }
    });

    it("lets a reset link expire after 60 minutes", async () => {
      const { email: address } = await signup();
      value(await client.request(billing.userResetRequest, { email: address, baseUrl: BASE_URL }));
      const [message] = await mailTo(address);
      const token = new URL(/https:\/\/\S+/.exec(message!.text)![0]).searchParams.get("token")!;
      clock += 60 * MINUTE + 1_000;
      const expired = error(
        await client.request(billing.userResetComplete, { token, password: "clave restablecida" }),
      );
      expect(expired.code).toBe("RESET_TOKEN_INVALID");
      expect(value(await login(address, PASSWORD, ip())).email).toBe(address);
    });
  });

  describe("support tickets", () => {
    it("keeps each account's tickets to itself; the operator answers by e-mail and closes", async () => {
      const ana = await signup();
      const otra = await signup();
      const as = (accountId: string) => ({ accountId });

      expect(
        error(
          await client.request(billing.soporteCreate, {
            userId: ana.userId,
            asunto: "Sin cuenta",
            mensaje: "Hola",
          }),
        ).code,
      ).toBe("UNAUTHORIZED");
      // a user of another account cannot open a ticket in this one
      expect(
        error(
          await client.request(
            billing.soporteCreate,
            { userId: otra.userId, asunto: "Ajeno", mensaje: "Hola" },
            as(ana.accountId),
          ),
        ).code,
      ).toBe("USER_NOT_FOUND");

      const requestId = randomUUID();
      const ticket = value(
        await client.request(
          billing.soporteCreate,
          {
            userId: ana.userId,
            asunto: "No puedo emitir",
            mensaje: "Me da error 502",
            requestId,
          },
          as(ana.accountId),
        ),
      );
      expect(ticket).toMatchObject({
        accountId: ana.accountId,
        userId: ana.userId,
        asunto: "No puedo emitir",
        estado: "abierto",
        requestId,
        messages: [{ autor: "cliente", mensaje: "Me da error 502" }],
      });

      const mine = value(await client.request(billing.soporteList, {}, as(ana.accountId)));
      expect(mine.tickets.map((t) => t.id)).toEqual([ticket.id]);
      const theirs = value(await client.request(billing.soporteList, {}, as(otra.accountId)));
      expect(theirs.tickets).toEqual([]);
      const foreign = error(
        await client.request(billing.soporteGet, { id: ticket.id }, as(otra.accountId)),
      );
      const missing = error(
        await client.request(billing.soporteGet, { id: randomUUID() }, as(otra.accountId)),
      );
      expect(foreign).toEqual({
        code: "SOPORTE_NOT_FOUND",
        message: "Ticket de soporte no encontrado",
      });
      expect(missing).toEqual(foreign);
      expect(
        error(
          await client.request(
            billing.soporteReply,
            { id: ticket.id, mensaje: "Intruso" },
            as(otra.accountId),
          ),
        ),
      ).toEqual(foreign);

      clock += MINUTE;
      const answered = value(
        await client.request(billing.soporteOperadorReply, {
          id: ticket.id,
          mensaje: "Revisá la delegación del servicio wsfe.",
        }),
      );
      expect(answered.estado).toBe("respondido");
      const [reply] = await mailTo(ana.email);
      expect(reply!.subject).toBe("Respuesta a tu consulta: No puedo emitir");
      expect(reply!.text).toContain("Hola Ana Pérez:");
      expect(reply!.text).toContain("Revisá la delegación del servicio wsfe.");

      const queue = value(await client.request(billing.soporteOperadorList, {}));
      expect(queue.tickets.map((t) => t.id)).toContain(ticket.id);

      clock += MINUTE;
      const followUp = value(
        await client.request(
          billing.soporteReply,
          { id: ticket.id, mensaje: "Gracias, ya funciona", autor: "cliente" },
          as(ana.accountId),
        ),
      );
      expect(followUp.estado).toBe("abierto");
      expect(followUp.messages.map((m) => m.autor)).toEqual(["cliente", "operador", "cliente"]);
      const seen = value(
        await client.request(billing.soporteGet, { id: ticket.id }, as(ana.accountId)),
      );
      expect(seen).toEqual(followUp);

      const closed = value(await client.request(billing.soporteClose, { id: ticket.id }));
      expect(closed.estado).toBe("cerrado");
      expect(
        error(
          await client.request(
            billing.soporteReply,
            { id: ticket.id, mensaje: "Una más" },
            as(ana.accountId),
          ),
        ).code,
      ).toBe("SOPORTE_CERRADO");
      expect(
        error(
          await client.request(billing.soporteOperadorReply, { id: ticket.id, mensaje: "Otra" }),
        ).code,
      ).toBe("SOPORTE_CERRADO");
      const open = value(await client.request(billing.soporteOperadorList, {}));
      expect(open.tickets.map((t) => t.id)).not.toContain(ticket.id);
      const all = value(await client.request(billing.soporteOperadorList, { todos: true }));
      expect(all.tickets.map((t) => t.id)).toContain(ticket.id);
      expect(
        value(await client.request(billing.soporteOperadorGet, { id: ticket.id })).messages,
      ).toHaveLength(3);
      expect(error(await client.request(billing.soporteClose, { id: randomUUID() })).code).toBe(
        "SOPORTE_NOT_FOUND",
      );
    });
  });
});
