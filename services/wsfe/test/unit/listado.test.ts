import { describe, expect, it } from "vitest";
import {
  decodeListadoCursor,
  encodeListadoCursor,
  listadoState,
} from "../../src/domain/listado.js";

describe("the voucher list's cursor", () => {
  const position = {
    createdAt: "2026-11-22T21:40:01.123456Z",
    id: "8f14e45f-ceea-467f-a8f6-0c1b2d3e4f50",
  };

  it("gives back the exact position it was made from, microseconds included", () => {
    expect(decodeListadoCursor(encodeListadoCursor(position))).toEqual(position);
  });

  it("refuses a cursor it did not write", () => {
    expect(decodeListadoCursor("abc")).toBeUndefined();
    const tampered = Buffer.from(`${position.createdAt}|not-an-id`).toString("base64url");
    expect(decodeListadoCursor(tampered)).toBeUndefined();
    const injected = Buffer.from(`2026-11-22'); drop table x; --|${position.id}`).toString(
      "base64url",
    );
    expect(decodeListadoCursor(injected)).toBeUndefined();
  });
});

describe("listadoState", () => {
  it("lists pending and unknown vouchers as pending", () => {
    expect(listadoState("authorized")).toBe("authorized");
    expect(listadoState("rejected")).toBe("rejected");
    expect(listadoState("pending")).toBe("pending");
    expect(listadoState("unknown")).toBe("pending");
  });
});
