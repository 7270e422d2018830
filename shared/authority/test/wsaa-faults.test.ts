import { describe, expect, it } from "vitest";
import { classifyWsaaFailure } from "../src/index.js";
import { parseLoginTicket } from "../src/wsaa.js";

const fault = (code: string, message = "") => ({
  kind: "fault" as const,
  code,
  message,
  status: 500,
});

describe("WSAA fault classification", () => {
  it("names service and environment when the certificate is not delegated", () => {
    const classified = classifyWsaaFailure(
      fault("coe.notAuthorized", "Computador no autorizado a acceder al servicio"),
      "wsfex",
      "produccion",
    );
    expect(classified.kind).toBe("error");
    if (classified.kind !== "error") return;
    expect(classified.error.code).toBe("SERVICE_NOT_DELEGATED");
    expect(classified.error.message).toContain("wsfex");
    expect(classified.error.message).toContain("en producción");
    expect(classified.error.details).toEqual({ service: "wsfex", environment: "produccion" });
  });

  it("treats a bare LoginFault like coe.notAuthorized", () => {
    const classified = classifyWsaaFailure(fault("wsaa.LoginFault"), "wsfe", "homologacion");
    expect(classified.kind === "error" && classified.error.code).toBe("SERVICE_NOT_DELEGATED");
  });

  it("answers the test/production mix-up for an untrusted certificate", () => {
    const classified = classifyWsaaFailure(
      fault("cms.cert.untrusted", "Certificado no emitido por AC de confianza"),
      "wsfe",
      "homologacion",
    );
    expect(classified.kind === "error" && classified.error.code).toBe(
      "CERTIFICATE_ENVIRONMENT_MISMATCH",
    );
  });

  it("leaves coe.alreadyAuthenticated to the caller", () => {
    expect(
      classifyWsaaFailure(fault("coe.alreadyAuthenticated"), "wsfe", "homologacion").kind,
    ).toBe("already-authenticated");
  });

  it.each([
    fault("wsaa.unavailable"),
    fault("wsaa.internalError"),
    fault("xml.generationTime.invalid"),
    fault("something.new"),
    { kind: "timeout" as const, timeoutMs: 1000 },
    { kind: "http" as const, status: 503 },
    { kind: "network" as const, message: "ECONNREFUSED" },
    { kind: "unreadable" as const, message: "not xml" },
  ])("answers 502 AUTHORITY_UNAVAILABLE for %o", (failure) => {
    const classified = classifyWsaaFailure(failure, "wsfe", "homologacion");
    expect(classified.kind === "error" && classified.error.code).toBe("AUTHORITY_UNAVAILABLE");
  });
});

describe("TA parsing", () => {
  it("reads token, sign and the times with their offset", () => {
    const ta = parseLoginTicket(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<loginTicketResponse version="1.0"><header><source>CN=wsaahomo</source><destination>x</destination>
<uniqueId>52006586</uniqueId><generationTime>2021-06-19T12:24:19.330-03:00</generationTime>
<expirationTime>2021-06-20T00:24:19.330-03:00</expirationTime></header>
<credentials><token>PD94bWw=</token><sign>c2lnbg==</sign></credentials></loginTicketResponse>`,
    );
    expect(ta).toEqual({
      token: "PD94bWw=",
      sign: "c2lnbg==",
      generationTime: new Date("2021-06-19T15:24:19.330Z"),
      expirationTime: new Date("2021-06-20T03:24:19.330Z"),
    });
  });

  it("refuses a TA without credentials", () => {
    expect(
      parseLoginTicket("<loginTicketResponse><header/></loginTicketResponse>"),
    ).toBeUndefined();
    expect(parseLoginTicket("not xml at all <")).toBeUndefined();
  });
});
