import { webhooks } from "@pasarela/contracts";
import { describe, expect, it } from "vitest";
import { ipLiteralOf, isBlockedAddress } from "../../src/domain/address.js";
import { normalizeEventos, subscribes } from "../../src/domain/eventos.js";
import { anteriorVence, newSecreto, secretoKey } from "../../src/domain/secreto.js";
import { urlHostProblem, type Resolve } from "../../src/domain/url.js";

describe("blocked addresses", () => {
  it.each([
    "127.0.0.1",
    "127.255.255.254",
    "10.0.0.1",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.10",
    "169.254.169.254",
    "169.254.0.1",
    "100.64.0.1",
    "100.127.255.255",
    "0.0.0.0",
    "224.0.0.251",
    "239.255.255.250",
    "255.255.255.255",
    "::",
    "::1",
    "fc00::1",
    "fd12:3456::1",
    "fd00:ec2::254",
    "fe80::1",
    "febf::1",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:10.1.2.3",
    "::ffff:7f00:1",
    "::7f00:1",
  ])("refuses %s", (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "172.15.255.255",
    "172.32.0.1",
    "100.63.255.255",
    "100.128.0.1",
    "169.253.255.255",
    "192.169.0.1",
    "2001:4860:4860::8888",
    "2606:4700::1111",
    "fe00::1",
    "::ffff:8.8.8.8",
  ])("accepts %s", (address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });

  it("reads IP literals out of URL hostnames, brackets and all", () => {
    expect(ipLiteralOf("[::1]")).toBe("::1");
    expect(ipLiteralOf("10.0.0.1")).toBe("10.0.0.1");
    expect(ipLiteralOf("example.com")).toBeUndefined();
    expect(ipLiteralOf("[example.com]")).toBeUndefined();
    expect(() => isBlockedAddress("example.com")).toThrow();
  });
});

describe("an endpoint's host", () => {
  const resolving =
    (table: Record<string, readonly string[]>): Resolve =>
    (hostname) => {
      const addresses = table[hostname];
      return addresses ? Promise.resolve(addresses) : Promise.reject(new Error("ENOTFOUND"));
    };
  const never: Resolve = () => Promise.reject(new Error("a literal must not be resolved"));

  it("accepts a public literal or a name resolving only to public addresses", async () => {
    expect(await urlHostProblem("https://8.8.8.8/hook", never)).toBeUndefined();
    expect(await urlHostProblem("https://[2606:4700::1111]:8443/x", never)).toBeUndefined();
    const resolve = resolving({ "hooks.example.com": ["93.184.216.34", "2606:2800::1"] });
    expect(await urlHostProblem("https://hooks.example.com/a?b=c", resolve)).toBeUndefined();
  });

  it("refuses blocked literals, whatever way the URL spells them", async () => {
    for (const url of [
      "http://127.0.0.1/",
      "http://2130706433/", // 127.0.0.1 as one number: the URL parser normalizes it
      "http://0x7f.1/",
      "https://[::1]/",
      "https://[::ffff:169.254.169.254]/latest/meta-data",
      "https://[fd00:ec2::254]/",
      "https://169.254.169.254/latest/meta-data",
      "https://100.64.1.1/",
    ]) {
      expect(await urlHostProblem(url, never), url).toMatch(
        /^apunta a una dirección privada, local o reservada \(.+\): no se aceptan loopback/,
      );
    }
  });

  it("refuses localhost names without asking the resolver", async () => {
    expect(await urlHostProblem("http://localhost:8080/", never)).toMatch(
      /^apunta a esta misma máquina \(localhost\)/,
    );
    expect(await urlHostProblem("http://api.LOCALHOST./", never)).toMatch(/misma máquina/);
  });

  it("refuses a name when any of its addresses is blocked", async () => {
    const resolve = resolving({ "mixed.example.com": ["93.184.216.34", "10.0.0.7"] });
    expect(await urlHostProblem("https://mixed.example.com/", resolve)).toBe(
      "tiene un host que resuelve a una dirección privada, local o reservada (10.0.0.7): no se aceptan loopback, redes privadas, link-local, CGNAT, multicast ni direcciones de metadatos",
    );
  });

  it("refuses a name that does not resolve", async () => {
    expect(await urlHostProblem("https://nowhere.invalid/", resolving({}))).toBe(
      "tiene un host que no se pudo resolver (nowhere.invalid)",
    );
    expect(
      await urlHostProblem("https://empty.example.com/", resolving({ "empty.example.com": [] })),
    ).toBe("tiene un host que no se pudo resolver (empty.example.com)");
  });
});

describe("the URL's shape (contract)", () => {
  const problem = (url: unknown) =>
    webhooks.webhookUrlSchema.safeParse(url).error?.issues[0]?.message;

  it("accepts absolute http and https URLs up to 2048 characters", () => {
    expect(problem("https://hooks.example.com/pasarela")).toBeUndefined();
    expect(problem("http://hooks.example.com:8080/")).toBeUndefined();
    const long = `https://example.com/${"a".repeat(2048 - "https://example.com/".length)}`;
    expect(long).toHaveLength(2048);
    expect(problem(long)).toBeUndefined();
    expect(problem(`${long}a`)).toBe("debe tener como máximo 2048 caracteres");
  });

  it("refuses relative URLs, other schemes and credentials", () => {
    expect(problem("/hook")).toBe("debe ser una URL absoluta (https://…)");
    expect(problem("ftp://example.com/")).toBe("debe ser una URL https:// (o http://)");
    expect(problem("javascript:alert(1)")).toBe("debe ser una URL https:// (o http://)");
    expect(problem("https://user:pass@example.com/")).toBe(
      "no puede incluir usuario ni contraseña (usuario:clave@)",
    );
    expect(problem("https://token@example.com/")).toBe(
      "no puede incluir usuario ni contraseña (usuario:clave@)",
    );
  });
});

describe("events", () => {
  it("accepts the catalogue's events and * and lists them when refusing another", () => {
    const parse = (eventos: unknown) => webhooks.webhookEventosSchema.safeParse(eventos);
    expect(parse(["comprobante.autorizado", "cuota.alerta", "*"]).success).toBe(true);
    const wrong = parse(["comprobante.autorizado", "factura.creada"]);
    expect(wrong.error?.issues[0]?.path).toEqual([1]);
    const message = wrong.error?.issues[0]?.message ?? "";
    for (const evento of webhooks.WEBHOOK_EVENTOS) expect(message).toContain(`"${evento}"`);
    expect(parse([]).error?.issues[0]?.message).toBe("debe tener al menos 1 elementos");
  });

  it("stores * alone and the rest once each, in the catalogue's order", () => {
    expect(normalizeEventos(["email.enviado", "*"])).toEqual(["*"]);
    expect(normalizeEventos(["cobro.pagado", "comprobante.autorizado", "cobro.pagado"])).toEqual([
      "comprobante.autorizado",
      "cobro.pagado",
    ]);
  });

  it("* subscribes to every event, a list only to its own", () => {
    expect(subscribes(["*"], "certificado.vencido")).toBe(true);
    expect(subscribes(["email.fallido"], "email.fallido")).toBe(true);
    expect(subscribes(["email.fallido"], "email.enviado")).toBe(false);
  });
});

describe("signing secrets", () => {
  it("are whsec_ and the base64 of 32 random bytes, different each time", () => {
    const a = newSecreto();
    const b = newSecreto();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(webhooks.webhookSecretoSchema.safeParse(a).success).toBe(true);
    expect(a).not.toBe(b);
    expect(secretoKey(a)).toHaveLength(32);
  });

  it("encode exactly the bytes they stand for", () => {
    const bytes = Uint8Array.from({ length: 32 }, (_, i) => i);
    const secreto = newSecreto(bytes);
    expect(secreto).toBe("whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=");
    expect([...secretoKey(secreto)]).toEqual([...bytes]);
    expect(() => newSecreto(new Uint8Array(16))).toThrow();
  });

  it("a rotated-out secret signs for 24 more hours", () => {
    expect(anteriorVence(new Date("2026-11-27T10:00:00.000Z")).toISOString()).toBe(
      "2026-11-28T10:00:00.000Z",
    );
  });
});
