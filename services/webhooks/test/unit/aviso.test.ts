import { z } from "zod";
import { describe, expect, it } from "vitest";
import {
  avisoDesactivacion,
  avisoJobId,
  duracion,
  motivoDesactivacion,
} from "../../src/domain/aviso.js";

describe("the disabling e-mail", () => {
  const fallandoDesde = new Date("2026-11-24T10:00:00.000Z");
  const desactivadoAt = new Date("2026-11-27T10:05:00.000Z");

  it("says how long in words a person reads", () => {
    expect(duracion(30_000)).toBe("1 minuto");
    expect(duracion(45 * 60_000)).toBe("45 minutos");
    expect(duracion(5 * 3600_000)).toBe("5 horas");
    expect(duracion(3 * 24 * 3600_000 + 5 * 60_000)).toBe("3 días");
  });

  it("keeps the reason: how long, since when, and the last attempt", () => {
    expect(motivoDesactivacion(fallandoDesde, desactivadoAt, "HTTP 503: caído")).toBe(
      "Sus entregas fallaron sin interrupción durante 3 días (desde 2026-11-24 10:00 UTC). " +
        "Último intento: HTTP 503: caído",
    );
  });

  it("names the endpoint, since when it fails, the last status and how to enable it again", () => {
    const { subject, text } = avisoDesactivacion({
      webhookId: "7b0c9a52-3a53-4c49-9d1e-5d0f1b2c3d4e",
      url: "https://erp.example.com/hooks",
      descripcion: "ERP",
      fallandoDesde,
      desactivadoAt,
      motivo: motivoDesactivacion(fallandoDesde, desactivadoAt, "HTTP 500: error"),
      destinatario: "Ana",
      cuenta: "Kiosco",
    });
    expect(subject).toBe("Webhook desactivado: https://erp.example.com/hooks");
    expect(text).toContain("Hola, Ana:");
    expect(text).toContain(
      "Desactivamos el webhook https://erp.example.com/hooks (ERP) de la cuenta Kiosco",
    );
    expect(text).toContain("Falla desde: 2026-11-24 10:00 UTC");
    expect(text).toContain("Desactivado: 2026-11-27 10:05 UTC");
    expect(text).toContain("Último intento: HTTP 500: error");
    expect(text).toContain(
      'PATCH /api/webhooks/7b0c9a52-3a53-4c49-9d1e-5d0f1b2c3d4e\n  {"activo": true}',
    );
  });

  it("is queued under one id per disabling, a valid UUID", () => {
    const id = avisoJobId("e1", desactivadoAt);
    expect(z.uuid().safeParse(id).success).toBe(true);
    expect(avisoJobId("e1", desactivadoAt)).toBe(id);
    expect(avisoJobId("e1", new Date(desactivadoAt.getTime() + 1))).not.toBe(id);
    expect(avisoJobId("e2", desactivadoAt)).not.toBe(id);
  });
});
