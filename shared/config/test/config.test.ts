import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, authorityConfig, envPort, natsConfig, parseConfig, z } from "../src/index.js";

describe("parseConfig", () => {
  it("applies defaults and coerces values", () => {
    const config = parseConfig(z.object({ ...natsConfig, EDGE_PORT: envPort().default(3000) }), {
      EDGE_PORT: "8080",
    });
    expect(config.NATS_URL).toBe("nats://127.0.0.1:4222");
    expect(config.EDGE_PORT).toBe(8080);
  });

  it("reads the drain bound of a stop as a duration, 20 s when unset, at most 10 minutes", () => {
    const drain = (value: string | undefined) =>
      parseConfig(z.object(natsConfig), { SHUTDOWN_DRAIN_MS: value }).SHUTDOWN_DRAIN_MS;
    expect(drain(undefined)).toBe(20_000);
    expect(drain("45s")).toBe(45_000);
    expect(drain("1500")).toBe(1_500);
    expect(() => drain("11m")).toThrow(/SHUTDOWN_DRAIN_MS/);
    expect(() => drain("soon")).toThrow(/SHUTDOWN_DRAIN_MS/);
  });

  it("fails naming the variable", () => {
    expect(() => parseConfig(z.object({ EDGE_PORT: envPort() }), { EDGE_PORT: "abc" })).toThrow(
      ConfigError,
    );
    expect(() => parseConfig(z.object({ EDGE_PORT: envPort() }), { EDGE_PORT: "abc" })).toThrow(
      /EDGE_PORT/,
    );
  });
});

/** A self-signed certificate (no key kept): only its PEM shape matters here. */
const CA_PEM = `-----BEGIN CERTIFICATE-----
MIIDEzCCAfugAwIBAgIUZIkEP7kd9K8URVD0cYX3brwfMXYwDQYJKoZIhvcNAQEL
BQAwGTEXMBUGA1UEAwwOY29uZmlnIHRlc3QgQ0EwHhcNMjYxMTIyMTQ1MzMyWhcN
MzYxMTE5MTQ1MzMyWjAZMRcwFQYDVQQDDA5jb25maWcgdGVzdCBDQTCCASIwDQYJ
KoZIhvcNAQEBBQADggEPADCCAQoCggEBAKhOkGb291KuTGy2CG9pFQ1/Z5fQXBfG
5vs3JXvMKfPWBaFTD4ac988sHWSYMfVK4F5WvBDMpiT3to7zRQbHIzIR8ySDjuBq
bFlluo5noUGv7rVYRKlQUYbGI9NONdaW0nU1lYlh1u7qCzJ5uBnVxX1NW0VrflK0
/dvMyBdfH6HCCnKw6rVm1saqiYGb0cL65mpD2CvpIZFRywWwpceWyNPDgAy1GScS
kPcqbFDmXGrYxxGFgDCBxjf4CSXeyEzgo1xSp7zBqu6Q2i6wNIJ/Bnn/QXCYVgS/
1CHU7iXZarAInQ6c//y788smzp1d1hzyS/tO+Pz4WfTeeBIG360x4hcCAwEAAaNT
MFEwHQYDVR0OBBYEFIfniJRECyb7XToDsyEfL4UQjh9mMB8GA1UdIwQYMBaAFIfn
iJRECyb7XToDsyEfL4UQjh9mMA8GA1UdEwEB/wQFMAMBAf8wDQYJKoZIhvcNAQEL
BQADggEBAHG1d8evZXbz/25SrnHvqnJzfOk3jFzrQINqaoJQCIj9gkwNy7zdYnlh
AatyXVwxULxHAkFxRBzRK6WBjikisr8a65LdUaKWZ+2Cydxbz/C/PwCFMBNyEBHQ
YxWmPNhJIoQnCcR52H9xXJh6FXdB9YizapxSsGWmqJ2zXYDTA7DBQAJHEMG71eC9
fZpO+CVHoLGSxDFNYpjjG54kjdgCBAGOXFoT09TAAJ6MMBqD5QCUjOfN6jjxfepn
hxlNwgtzb1t1g4dYyQEWWfzEjilKcwWoZEAfIzO3gy/ZrjY28nMWQvD7oARPCK3q
d9UhxM++8zi8PbK71VXnLAWLMPtffAU=
-----END CERTIFICATE-----
`;

describe("AUTHORITY_CA_FILE", () => {
  const schema = z.object({ AUTHORITY_CA_FILE: authorityConfig.AUTHORITY_CA_FILE });
  const dir = mkdtempSync(join(tmpdir(), "pasarela-config-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads the PEM once, at parse time, and keeps the path for logs", () => {
    const file = join(dir, "ca.pem");
    writeFileSync(file, CA_PEM);
    expect(parseConfig(schema, { AUTHORITY_CA_FILE: file }).AUTHORITY_CA_FILE).toEqual({
      path: file,
      pem: CA_PEM,
    });
    expect(parseConfig(schema, {}).AUTHORITY_CA_FILE).toBeUndefined();
    expect(parseConfig(schema, { AUTHORITY_CA_FILE: "" }).AUTHORITY_CA_FILE).toBeUndefined();
  });

  it("stops naming the variable when the file is missing or holds no certificate", () => {
    expect(() => parseConfig(schema, { AUTHORITY_CA_FILE: join(dir, "missing.pem") })).toThrow(
      /AUTHORITY_CA_FILE \(invalid\): no PEM certificate readable at .*missing\.pem/,
    );
    const garbage = join(dir, "garbage.pem");
    writeFileSync(garbage, "not a certificate");
    expect(() => parseConfig(schema, { AUTHORITY_CA_FILE: garbage })).toThrow(
      /AUTHORITY_CA_FILE \(invalid\)/,
    );
  });
});

describe("authority URLs", () => {
  it("default to the authority's real hosts, the registry services included", () => {
    const config = parseConfig(z.object(authorityConfig), {});
    expect(config.PADRON_A13_URL_HOMOLOGACION).toBe(
      "https://awshomo.afip.gov.ar/sr-padron/webservices/personaServiceA13",
    );
    expect(config.PADRON_A10_URL_PRODUCCION).toBe(
      "https://aws.afip.gov.ar/sr-padron/webservices/personaServiceA10",
    );
    expect(config.PADRON_CONSTANCIA_URL_PRODUCCION).toBe(
      "https://aws.afip.gov.ar/sr-padron/webservices/personaServiceA5",
    );
    expect(() =>
      parseConfig(z.object(authorityConfig), { PADRON_CONSTANCIA_URL_HOMOLOGACION: "nope" }),
    ).toThrow(/PADRON_CONSTANCIA_URL_HOMOLOGACION/);
  });
});
