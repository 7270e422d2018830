import { describe, expect, it } from "vitest";
import { classifyWsaaFailure, describeTransportFailure, type SoapFailure } from "../src/index.js";

describe("transport failures are worded in one place", () => {
  it.each<SoapFailure>([
    { kind: "timeout", timeoutMs: 1_500 },
    { kind: "http", status: 503 },
    { kind: "network", message: "ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9" },
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
  });
});
