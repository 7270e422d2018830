import { describe, expect, it } from "vitest";
import { tokenIssuer } from "../src/index.js";

const token = (xml: string) => Buffer.from(xml, "utf8").toString("base64");
const sso = (src: string) =>
  token(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sso version="2.0">\n` +
      `    <id src="${src}" dst="CN=wsfe, O=AFIP, C=AR" unique_id="52006586" gen_time="1" exp_time="2"/>\n` +
      `    <operation type="login" value="granted"><login entity="33693450239" service="wsfe"/></operation>\n</sso>\n`,
  );

describe("tokenIssuer: which WSAA issued a TA token (sso/id/@src)", () => {
  it("names homologacion for CN=wsaahomo and produccion for CN=wsaa", () => {
    expect(tokenIssuer(sso("CN=wsaahomo, O=AFIP, C=AR, SERIALNUMBER=CUIT 33693450239"))).toBe(
      "homologacion",
    );
    expect(tokenIssuer(sso("CN=wsaa, O=AFIP, C=AR, SERIALNUMBER=CUIT 33693450239"))).toBe(
      "produccion",
    );
    expect(tokenIssuer(sso("O=AFIP, CN=WSAAHOMO, C=AR"))).toBe("homologacion");
  });

  it("reads base64 split into lines as WSAA may send it", () => {
    const lines = sso("CN=wsaahomo, O=AFIP").replace(/(.{64})/g, "$1\n");
    expect(tokenIssuer(lines)).toBe("homologacion");
  });

  it.each([
    ["empty", ""],
    ["not base64", "%%% token roto %%%"],
    ["base64 of text", token("no es xml <<")],
    ["XML without sso", token("<loginTicketResponse/>")],
    ["sso without id", token('<sso version="2.0"><operation/></sso>')],
  ])("answers malformed for %s", (_name, value) => {
    expect(tokenIssuer(value)).toBe("malformed");
  });

  it("answers unknown for a TA whose source names neither WSAA", () => {
    expect(tokenIssuer(sso("CN=otro, O=AFIP, C=AR"))).toBe("unknown");
    expect(tokenIssuer(sso("O=AFIP, C=AR"))).toBe("unknown");
  });
});
