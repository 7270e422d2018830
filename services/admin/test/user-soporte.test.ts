import { loadConfig, startBilling } from "@pasarela/billing";
import { connectBus, type Bus } from "@pasarela/bus";
import { billing } from "@pasarela/contracts";
import { startTracing } from "@pasarela/telemetry";
import { capturingLogger, fileInfra, type FileInfra } from "@pasarela/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../src/index.js";

/** `user add` and `soporte list|show|reply|close` against billing on real NATS and PostgreSQL. */
describe("admin CLI: dashboard users and support tickets", () => {
  let infra: FileInfra;
  let client: Bus;
  let stop: () => Promise<void>;
  let env: Record<string, string>;
  const { logger } = capturingLogger("billing");

  beforeAll(async () => {
    infra = await fileInfra();
    env = { NATS_URL: infra.natsUrl, NATS_PREFIX: infra.prefix };
    const service = await startBilling(
      loadConfig({
        ...env,
        DATABASE_URL: infra.databaseUrl,
        CURSOR_KEY: "Y3Vyc29yLXRlc3Qta2V5LWN1cnNvci10ZXN0LWtleSE=",
        API_KEY_PEPPER: "test-pepper-test-pepper-test-pepper-0123",
      }),
      logger,
    );
    stop = service.stop;
    client = await connectBus({
      url: infra.natsUrl,
      prefix: infra.prefix,
      name: "test",
      logger,
      tracer: startTracing({ service: "test" }).tracer,
    });
  });

  afterAll(async () => {
    await client?.close();
    await stop?.();
    await infra?.cleanup();
  });

  async function cli(...argv: string[]) {
    const outcome = await runCli(argv, env);
    return {
      exitCode: outcome.exitCode,
      out: JSON.parse(outcome.stdout ?? "null") as Record<string, unknown> & {
        tickets?: { id: string; estado: string }[];
        messages?: { autor: string; mensaje: string }[];
      },
      error: outcome.stderr ? (JSON.parse(outcome.stderr) as { error: string }).error : undefined,
    };
  }

  const login = (email: string, password: string) =>
    client.request(billing.userLogin, { email, password, ip: "192.0.2.9" });

  it("adds a user to an account, with a given or a generated password (shown once)", async () => {
    const created = await cli("account", "create", "--name", "Ferretería Norte");
    const accountId = created.out.accountId as string;

    const given = await cli(
      "user",
      "add",
      "--account",
      accountId,
      "--email",
      "Dueno@Ferreteria.test",
      "--name",
      "Dueño",
      "--password",
      "una clave larga 123",
    );
    expect(given.exitCode, given.error).toBe(0);
    expect(given.out).toEqual({
      userId: expect.any(String) as string,
      accountId,
      email: "dueno@ferreteria.test",
    });
    expect((await login("dueno@ferreteria.test", "una clave larga 123")).ok).toBe(true);

    const generated = await cli(
      "user",
      "add",
      "--account",
      accountId,
      "--email",
      "caja@ferreteria.test",
      "--name",
      "Caja",
    );
    expect(generated.exitCode, generated.error).toBe(0);
    const password = generated.out.password as string;
    expect(password.length).toBeGreaterThanOrEqual(10);
    const loggedIn = await login("caja@ferreteria.test", password);
    expect(loggedIn.ok && loggedIn.value.accountId).toBe(accountId);

    const taken = await cli(
      "user",
      "add",
      "--account",
      accountId,
      "--email",
      "caja@ferreteria.test",
      "--name",
      "Otra",
    );
    expect(taken.exitCode).toBe(1);
    expect(taken.error).toBe("Ya existe un usuario con ese e-mail");
    const short = await cli(
      "user",
      "add",
      "--account",
      accountId,
      "--email",
      "corta@ferreteria.test",
      "--name",
      "Corta",
      "--password",
      "corta",
    );
    expect(short.error).toBe("El campo password debe tener entre 10 y 200 caracteres");
  });

  it("lists, shows, answers and closes support tickets", async () => {
    const signed = await client.request(billing.userSignup, {
      accountName: "Almacén",
      name: "Dora",
      email: "dora@almacen.test",
      password: "una clave larga 123",
    });
    if (!signed.ok) throw new Error(signed.error.message);
    const { accountId, userId } = signed.value;
    const opened = await client.request(
      billing.soporteCreate,
      { userId, asunto: "Consulta", mensaje: "¿Cómo subo el certificado?" },
      { accountId },
    );
    if (!opened.ok) throw new Error(opened.error.message);
    const id = opened.value.id;

    const queue = await cli("soporte", "list");
    expect(queue.exitCode, queue.error).toBe(0);
    expect(queue.out.tickets?.find((t) => t.id === id)?.estado).toBe("abierto");

    const replied = await cli("soporte", "reply", "--id", id, "--mensaje", "Desde Certificados.");
    expect(replied.exitCode, replied.error).toBe(0);
    expect(replied.out.estado).toBe("respondido");

    const shown = await cli("soporte", "show", "--id", id);
    expect(shown.out.messages).toEqual([
      expect.objectContaining({ autor: "cliente", mensaje: "¿Cómo subo el certificado?" }),
      expect.objectContaining({ autor: "operador", mensaje: "Desde Certificados." }),
    ]);

    const closed = await cli("soporte", "close", "--id", id);
    expect(closed.out.estado).toBe("cerrado");
    expect((await cli("soporte", "list")).out.tickets?.some((t) => t.id === id)).toBe(false);
    expect(
      (await cli("soporte", "list", "--all", "true")).out.tickets?.some((t) => t.id === id),
    ).toBe(true);

    const missing = await cli("soporte", "show", "--id", "00000000-0000-4000-8000-000000000000");
    expect(missing.exitCode).toBe(1);
    expect(missing.error).toBe("Ticket de soporte no encontrado");
  });
});
