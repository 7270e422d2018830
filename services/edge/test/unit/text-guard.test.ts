import { describe, expect, it } from "vitest";
import { badlyEncodedQueryParameter, findForbiddenText } from "../../src/http/text-guard.js";

const controls = [
  ...Array.from({ length: 0x20 }, (_, c) => c).filter((c) => ![0x09, 0x0a, 0x0d].includes(c)),
];

describe("text guard: what no field may hold", () => {
  it("finds NUL and every C0 control but tab, LF and CR", () => {
    for (const c of controls) {
      expect(findForbiddenText({ a: `x${String.fromCharCode(c)}y` }), `U+${c}`).toEqual({
        path: ["a"],
        codePoint: c,
      });
    }
    expect(findForbiddenText({ a: "línea\tuno\r\nlínea dos\n" })).toBeUndefined();
  });

  it("finds lone surrogates, U+FFFE and U+FFFF, and lets pairs, U+FFFD and accents pass", () => {
    for (const [text, codePoint] of [
      ["\ud800", 0xd800],
      ["a\udbff", 0xdbff],
      ["\udc00b", 0xdc00],
      ["\udfff\ud800", 0xdfff],
      ["\ufffe", 0xfffe],
      ["\uffff", 0xffff],
    ] as const) {
      expect(findForbiddenText(text)).toEqual({ path: [], codePoint });
    }
    expect(findForbiddenText("Muñoz ñandú € 😀 \ufffd \u00a0 \u2028")).toBeUndefined();
  });

  it("names the path of the field, through arrays and objects, and refuses bad keys", () => {
    expect(
      findForbiddenText({
        ok: "sí",
        items: [{ descripcion: "bien" }, { descripcion: "ma\u0000l" }],
      }),
    ).toEqual({ path: ["items", "1", "descripcion"], codePoint: 0 });
    expect(findForbiddenText({ nested: { "cla\u0001ve": 1 } })).toEqual({
      path: ["nested", "cla\\u0001ve"],
      codePoint: 1,
    });
    expect(findForbiddenText({ n: 1, b: true, z: null, list: [1, 2] })).toBeUndefined();
  });

  it("walks a body nested far deeper than a call stack allows", () => {
    let deep: unknown = "fondo\u0000";
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const found = findForbiddenText(deep);
    expect(found?.codePoint).toBe(0);
    expect(found?.path).toHaveLength(200_000);
  });

  it("names the query parameter whose percent-encoding is not UTF-8", () => {
    expect(badlyEncodedQueryParameter("/api/clientes")).toBeUndefined();
    expect(badlyEncodedQueryParameter("/api/clientes?q=%C3%B1and%C3%BA&limit=2&x")).toBeUndefined();
    expect(badlyEncodedQueryParameter("/api/clientes?limit=2&q=%ED%A0%80")).toBe("q");
    expect(badlyEncodedQueryParameter("/api/clientes?q=a=b%ZZ")).toBe("q");
    expect(badlyEncodedQueryParameter("/api/clientes?q%E2%82=1")).toBe("q%E2%82");
  });
});
