import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerErrorHandling } from "../../src/http/error-handler.js";
import { foreignCharset, registerJsonBody } from "../../src/http/json-body.js";
import { findInexactNumber, readsExactly } from "../../src/http/json-numbers.js";

describe("number literals a double holds exactly", () => {
  it.each([
    "0",
    "-0",
    "0.0",
    "-0.0e5",
    "1.5",
    "1.50",
    "1.5000000000000000000000",
    "0.1",
    "-1210.50",
    "9999999999999.99",
    "123456789012345",
    "0.000000000000001",
    "1e21",
    "1E-7",
    "1.5e+300",
    "-2.5e-3",
    "5e-324",
    "1.7976931348623157e308",
    "100000000000000000000000",
    "0e99999999999999999999",
  ])("%s reads exactly", (literal) => {
    expect(readsExactly(literal)).toBe(true);
  });

  it.each([
    ["1.000000000000000000001", "rounds to 1"],
    ["1e-400", "underflows to 0"],
    ["-1e-400", "underflows to -0"],
    ["1e400", "overflows"],
    ["-1e400", "overflows"],
    ["12345678901234567890", "a big integer beyond 2^53"],
    ["20111111112222222", "a document number with 17 digits"],
    ["9007199254740993", "2^53 + 1"],
    ["9007199254740993e0", "2^53 + 1 with an exponent"],
    ["0.1000000000000000055511151231257827", "the double's own digits, cut"],
    ["3.14159265358979323846", "more digits than a double holds"],
    ["1e-324", "below the smallest subnormal"],
    [
      "0.0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001",
      "a tiny value written out",
    ],
  ])("%s does not (%s)", (literal) => {
    expect(readsExactly(literal)).toBe(false);
  });
});

describe("findInexactNumber", () => {
  it("finds nothing in bodies whose numbers all read exactly", () => {
    for (const text of [
      "{}",
      "[]",
      "0",
      "-0",
      '{"cantidad":1.50,"precioUnitario":-0.1,"docNro":20111111112,"big":1e21}',
      '{"a":[1,[2,[3e2,{"b":-4.25E-3}]]],"c":true,"d":null,"e":false}',
      // digits and exponents inside strings are text, never numbers
      '{"nota":"1e400 y 12345678901234567890","id":"6f1c1f4e-0b6a-4e43-9b3f-3f1d0b8a7c11"}',
      '{"escapado":"comilla \\" 1e400 \\\\","x":1}',
      ' \n\t{ "a" : 1 , "b" : [ 2 , 3 ] } ',
    ]) {
      expect(findInexactNumber(text), text).toBeUndefined();
    }
  });

  it("names the path of the first inexact literal through nested arrays and objects", () => {
    expect(
      findInexactNumber('{"items":[{"cantidad":1.000000000000000000001,"precioUnitario":1}]}'),
    ).toEqual({ path: ["items", "0", "cantidad"], literal: "1.000000000000000000001" });
    expect(
      findInexactNumber(
        '{"items":[{"cantidad":1},{"descripcion":"b, c","cantidad":2,"precioUnitario":1e-400}]}',
      ),
    ).toEqual({ path: ["items", "1", "precioUnitario"], literal: "1e-400" });
    expect(findInexactNumber('{"a":[[1,2],[3,[4,5,-1e400]]]}')).toEqual({
      path: ["a", "1", "1", "2"],
      literal: "-1e400",
    });
    expect(findInexactNumber('{"a":{"b":{}},"c":{"d":[],"e":12345678901234567890}}')).toEqual({
      path: ["c", "e"],
      literal: "12345678901234567890",
    });
    // keys with escapes and commas are read as JSON reads them
    expect(findInexactNumber('{"a,\\"b":{"x":1},"c\\u00f1":[0,1e999]}')).toEqual({
      path: ["cñ", "1"],
      literal: "1e999",
    });
  });

  it("reports a body that is itself an inexact number at the root", () => {
    expect(findInexactNumber("1e400")).toEqual({ path: [], literal: "1e400" });
    expect(findInexactNumber("[1e400]")).toEqual({ path: ["0"], literal: "1e400" });
  });

  it("walks a body nested far deeper than a call stack allows", () => {
    const depth = 200_000;
    const text = `${"[".repeat(depth)}1e400${"]".repeat(depth)}`;
    const found = findInexactNumber(text);
    expect(found?.path).toHaveLength(depth);
    expect(found?.literal).toBe("1e400");
  });
});

describe("foreignCharset", () => {
  it.each([
    [undefined, undefined],
    ["application/json", undefined],
    ["application/json; charset=utf-8", undefined],
    ["application/json;charset=UTF-8", undefined],
    ['application/json; charset="utf8"', undefined],
    ["application/json; Charset=Utf8 ; foo=bar", undefined],
    ["application/json; charset=utf-16", "utf-16"],
    ["application/json; charset=latin1", "latin1"],
    ["application/json; charset=ISO-8859-1", "ISO-8859-1"],
    ['application/json; charset="windows-1252"', "windows-1252"],
    ["application/json; charset=", ""],
    ["application/json; charset=utf-8; charset=utf-16le", "utf-16le"],
  ])("%s → %s", (header, expected) => {
    expect(foreignCharset(header)).toBe(expected);
  });
});

describe("the JSON body parser", () => {
  const app = Fastify();
  let received: unknown;
  beforeAll(async () => {
    registerErrorHandling(app);
    registerJsonBody(app);
    app.post("/eco", (request) => {
      received = request.body;
      return { body: request.body };
    });
    await app.ready();
  });
  afterAll(() => app.close());

  const post = (payload: string | Buffer, contentType = "application/json") =>
    app.inject({ method: "POST", url: "/eco", headers: { "content-type": contentType }, payload });

  it("hands the route the parsed value: nested, negative, exponents, -0, integers up to 15 digits", async () => {
    const text =
      '{"docNro":20111111112,"items":[{"cantidad":-2.5,"precio":1.5e3,"x":[[-0],{"y":1E-7}]}],"cero":-0,"grande":123456789012345}';
    const response = await post(text);
    expect(response.statusCode).toBe(200);
    // toEqual tells -0 from 0
    expect(received).toEqual(JSON.parse(text));
    expect(received).toMatchObject({ cero: -0, items: [{ x: [[-0], { y: 1e-7 }] }] });
  });

  it.each([
    ["1.000000000000000000001", "items.0.cantidad"],
    ["1e-400", "items.0.cantidad"],
    ["1e400", "items.0.cantidad"],
    ["12345678901234567890", "items.0.cantidad"],
  ])("refuses %s with 400 INEXACT_NUMBER naming %s", async (literal, field) => {
    const response = await post(`{"items":[{"cantidad":${literal}}]}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: `El campo ${field} tiene un número (${literal}) que no se puede leer sin redondearlo: enviá hasta 15 dígitos significativos, o el valor como texto decimal ("1.5") donde el campo lo admita`,
      code: "INEXACT_NUMBER",
      details: { field, literal },
    });
  });

  it("refuses a big integer sent as a number in docNro, and names the body when it is one", async () => {
    const big = await post('{"docTipo":80,"docNro":201111111122222222}');
    expect(big.json()).toMatchObject({ code: "INEXACT_NUMBER", details: { field: "docNro" } });
    const root = await post("1e400");
    expect(root.json()).toMatchObject({ code: "INEXACT_NUMBER", details: { field: "(cuerpo)" } });
  });

  it("answers 415 for a charset other than UTF-8, and reads utf-8/utf8 in any case", async () => {
    for (const charset of ["utf-16", "UTF-16LE", "latin1", "iso-8859-1", "windows-1252"]) {
      const response = await post(
        Buffer.from('{"razonSocial":"Muñoz"}', charset.startsWith("u") ? "utf16le" : "latin1"),
        `application/json; charset=${charset}`,
      );
      expect(response.statusCode, charset).toBe(415);
      expect(response.json(), charset).toEqual({
        error: `El cuerpo de la solicitud debe estar codificado en UTF-8: Content-Type declara charset=${charset}; enviá el JSON en UTF-8 (charset=utf-8, o sin charset)`,
        code: "UNSUPPORTED_CHARSET",
        details: { charset },
      });
    }
    for (const charset of ["utf-8", "UTF-8", "utf8", '"UTF8"']) {
      const response = await post(
        '{"razonSocial":"Muñoz"}',
        `application/json; charset=${charset}`,
      );
      expect(response.statusCode, charset).toBe(200);
      expect(response.json()).toEqual({ body: { razonSocial: "Muñoz" } });
    }
  });

  it("refuses bytes that are not UTF-8 with 400 instead of reading U+FFFD", async () => {
    const response = await post(Buffer.from('{"razonSocial":"Mu\xf1oz"}', "latin1"));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: "INVALID_JSON",
      error: "El cuerpo de la solicitud no es JSON válido: el cuerpo no es texto UTF-8 válido",
    });
  });

  it("refuses text/plain like any other media type that is not JSON, naming it", async () => {
    for (const contentType of ["text/plain", "text/plain; charset=utf-8", "application/xml"]) {
      const response = await post('{"a":1}', contentType);
      expect(response.statusCode, contentType).toBe(400);
      expect(response.json(), contentType).toEqual({
        error: `El cuerpo de la solicitud no es JSON válido: Content-Type ${contentType} no soportado; enviá application/json`,
        code: "INVALID_JSON",
        details: {
          problem: `Content-Type ${contentType} no soportado; enviá application/json`,
        },
      });
    }
  });
});
