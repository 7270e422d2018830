import { describe, expect, it } from "vitest";
import {
  classifyWsaaFailure,
  describeTransportFailure,
  socketFailure,
  type SoapFailure,
} from "../src/index.js";

describe("transport failures are worded in one place", () => {
  it.each<SoapFailure>([
    { kind: "timeout", timeoutMs: 1_500 },
    { kind: "http", status: 503 },
    { kind: "network", message: "ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9" },
    { kind: "tls", message: "UNABLE_TO_VERIFY_LEAF_SIGNATURE: unable to verify" },
    { kind: "too-large", limitBytes: 4_194_304 },
    { kind: "unreadable", message: "loginCmsReturn is not a TA" },
    { kind: "fault", code: "wsaa.unavailable", message: "Servicio no disponible", status: 500 },
    { kind: "fault", code: "something.new", message: "", status: 500 },
  ])("WSAA answers %o as WSFE and WSFEX would, naming WSAA", (failure) => {
    const classified = classifyWsaaFailure(failure, "wsfe", "homologacion");
    expect(classified).toEqual({ kind: "error", error: describeTransportFailure("WSAA", failure) });
  });

  it("keeps what tells the failures apart in message and details", () => {
    expect(
      describeTransportFailure("WSFE", { kind: "timeout", timeoutMs: 1_500 }).message,
    ).toContain("WSFE no respondió en 1500 ms");
    expect(describeTransportFailure("WSAA", { kind: "http", status: 503 }).details).toMatchObject({
      httpStatus: 503,
    });
    const fault = describeTransportFailure("WSAA", {
      kind: "fault",
      code: "wsaa.unavailable",
      message: "Servicio no disponible",
      status: 500,
    });
    expect(fault.code).toBe("AUTHORITY_UNAVAILABLE");
    expect(fault.message).toContain("wsaa.unavailable: Servicio no disponible");
    expect(fault.details).toMatchObject({ authorityCode: "wsaa.unavailable" });
    expect(
      describeTransportFailure("WSFE", { kind: "tls", message: "CERT_HAS_EXPIRED: expired" })
        .message,
    ).toContain("el certificado TLS de WSFE no es de confianza o no es válido: CERT_HAS_EXPIRED");
    expect(
      describeTransportFailure("WSFE", { kind: "too-large", limitBytes: 4_194_304 }).message,
    ).toContain("la respuesta de WSFE supera el límite de 4194304 bytes");
  });

  it("tells an untrusted certificate and an oversized answer from an unreachable host", () => {
    expect(
      socketFailure(
        Object.assign(new Error("unable to verify the first certificate"), {
          code: "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
        }),
        10,
      ),
    ).toEqual({
      kind: "tls",
      message: "UNABLE_TO_VERIFY_LEAF_SIGNATURE: unable to verify the first certificate",
    });
    const tooLarge = Object.assign(new Error("la respuesta supera el límite"), {
      name: "ResponseTooLargeError",
    });
    expect(socketFailure(tooLarge, 10)).toEqual({ kind: "too-large", limitBytes: 10 });
    expect(socketFailure(new Error("maxContentLength size of 10 exceeded"), 10)).toEqual({
      kind: "too-large",
      limitBytes: 10,
    });
    expect(
      socketFailure(
        new TypeError("fetch failed", { cause: { code: "ECONNREFUSED", message: "x" } }),
        10,
      ),
    ).toEqual({ kind: "network", message: "ECONNREFUSED: x" });
  });
});
