import { describe, expect, it } from "vitest";
import { autorizacionFields, estadoApi } from "../../src/domain/autorizacion.js";
import { listadoPositionText, parseListadoPosition } from "../../src/domain/listado.js";

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

describe("estadoApi", () => {
  const cae = {
    tipoAutorizacion: "CAE" as const,
    cae: "71263951827464",
    caeVencimiento: "20261211",
  };
  const caea = {
    tipoAutorizacion: "CAEA" as const,
    cae: "37471234567890",
    caeVencimiento: "20261215",
  };

  it("lists pending and unknown vouchers as pending, and a CAE voucher's verdict as stored", () => {
    expect(estadoApi({ ...cae, state: "authorized" })).toBe("authorized");
    expect(estadoApi({ ...cae, state: "rejected" })).toBe("rejected");
    expect(estadoApi({ ...cae, state: "pending" })).toBe("pending");
    expect(estadoApi({ ...cae, state: "unknown" })).toBe("pending");
  });

  it("names a CAEA voucher by its informing: pendiente, informado as authorized, rechazado", () => {
    expect(estadoApi({ ...caea, state: "authorized", caeaEstado: "pendiente" })).toBe(
      "caea_pendiente",
    );
    expect(estadoApi({ ...caea, state: "authorized", caeaEstado: "informado" })).toBe("authorized");
    expect(estadoApi({ ...caea, state: "caea_rechazado", caeaEstado: "rechazado" })).toBe(
      "caea_rechazado",
    );
    expect(estadoApi({ ...caea, state: "authorized", caeaEstado: "rechazado" })).toBe(
      "caea_rechazado",
    );
  });
});

describe("autorizacionFields", () => {
  it("adds only tipoAutorizacion to a CAE voucher", () => {
    expect(
      autorizacionFields({
        state: "authorized",
        tipoAutorizacion: "CAE",
        cae: "71263951827464",
        caeVencimiento: "20261211",
      }),
    ).toEqual({ tipoAutorizacion: "CAE" });
  });

  it("names a CAEA voucher's CAEA and FchVigHasta, and when it was informed only once accepted", () => {
    const base = {
      state: "authorized",
      tipoAutorizacion: "CAEA" as const,
      cae: "37471234567890",
      caeVencimiento: "20261215",
      caeaInformadoAt: new Date("2026-12-16T10:00:00.000Z"),
    };
    expect(autorizacionFields({ ...base, caeaEstado: "pendiente" })).toEqual({
      tipoAutorizacion: "CAEA",
      caea: "37471234567890",
      caeaVencimiento: "20261215",
    });
    expect(autorizacionFields({ ...base, caeaEstado: "informado" })).toEqual({
      tipoAutorizacion: "CAEA",
      caea: "37471234567890",
      caeaVencimiento: "20261215",
      caeaInformadoAt: "2026-12-16T10:00:00.000Z",
    });
  });
});
