import { describe, expect, it } from "vitest";
import {
  listadoPositionText,
  listadoState,
  parseListadoPosition,
} from "../../src/domain/listado.js";

describe("the voucher list's position", () => {
  const position = {
    createdAt: "2026-11-22T21:40:01.123456Z",
    id: "8f14e45f-ceea-467f-a8f6-0c1b2d3e4f50",
  };

  it("gives back the exact position it was made from, microseconds included", () => {
    expect(parseListadoPosition(listadoPositionText(position))).toEqual(position);
  });

  it("refuses text it did not write", () => {
    expect(parseListadoPosition("abc")).toBeUndefined();
    expect(parseListadoPosition(`${position.createdAt}|not-an-id`)).toBeUndefined();
    expect(parseListadoPosition(`2026-11-22'); drop table x; --|${position.id}`)).toBeUndefined();
    expect(parseListadoPosition(`${listadoPositionText(position)}|more`)).toBeUndefined();
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
