import { billing, mail, ticket, wsfe } from "@pasarela/contracts";
import { appError, fail, ok } from "@pasarela/errors";
import { capturingLogger } from "@pasarela/testing";
import { describe, expect, it } from "vitest";
import type { CaeaOtorgado, CaeaPedido } from "../../../src/adapters/wsfe-caea.js";
import type { CaeaFaltante } from "../../../src/db/repositories/caeas.js";
import { startCaeaObtainer } from "../../../src/flows/caea-obtener.js";

const ACCOUNT = "7d1f0a8e-1b2c-4d5e-8f90-123456789abc";
const CUIT = "20111111112";
// 2027-03-31 09:00 in Argentina: March's second fortnight, April's starts within a day
const NOW = Date.parse("2027-03-31T12:00:00Z");

const granted = (periodo: number, orden: 1 | 2): CaeaOtorgado => ({
  caea: `2713${periodo}${orden}000`.padEnd(14, "0").slice(0, 14),
  periodo,
  orden,
  fchVigDesde: orden === 1 ? `${periodo}01` : `${periodo}16`,
  fchVigHasta: orden === 1 ? `${periodo}15` : `${periodo}31`,
  fchTopeInf: `${periodo}28`,
  fchProceso: `${periodo}01`,
});

/** One pass of the obtainer over one representada, with the authority answering `answers`. */
async function pass(answers: Record<string, CaeaPedido | "error">, owner = true) {
  const stored = new Map<string, CaeaOtorgado>();
  const recorded: CaeaFaltante[] = [];
  const alerted: CaeaFaltante[] = [];
  const published: { subject: string; body: Record<string, unknown> }[] = [];
  const asked: string[] = [];
  const { logger } = capturingLogger("wsfe");
  const obtainer = startCaeaObtainer({
    bus: {
      request: ((contract: { subject: string }) =>
        Promise.resolve(
          contract.subject === ticket.contingenciaList.subject
            ? ok({
                representadas: [
                  {
                    accountId: ACCOUNT,
                    cuit: CUIT,
                    environment: "homologacion",
                    puntosDeVenta: [90],
                  },
                ],
              })
            : contract.subject === billing.accountOwnerGet.subject && owner
              ? ok({
                  userId: ACCOUNT,
                  accountId: ACCOUNT,
                  accountName: "Tienda",
                  name: "Ana",
                  email: "ana@example.com",
                })
              : fail(appError("USER_NOT_FOUND")),
        )) as never,
      publish: (contract: { subject: string }, body: Record<string, unknown>) => {
        published.push({ subject: contract.subject, body });
        return Promise.resolve();
      },
    },
    caea: {
      solicitar: (_caller, q) => {
        asked.push(`${q.periodo}/${q.orden}`);
        const answer = answers[`${q.periodo}/${q.orden}`] ?? "error";
        return Promise.resolve(
          answer === "error" ? fail(appError("AUTHORITY_UNAVAILABLE")) : ok(answer),
        );
      },
      consultar: (_caller, q) => Promise.resolve(ok(granted(q.periodo, q.orden))),
    },
    caeas: {
      find: (_o, q) =>
        Promise.resolve(
          stored.has(`${q.periodo}/${q.orden}`)
            ? { ...granted(q.periodo, q.orden), obtainedAt: new Date() }
            : undefined,
        ),
      store: (_o, c) => {
        stored.set(`${c.periodo}/${c.orden}`, c);
        return Promise.resolve();
      },
    },
    faltantes: {
      record: (f) => {
        recorded.push(f);
        return Promise.resolve();
      },
      pending: () => Promise.resolve(recorded.filter((f) => !alerted.includes(f))),
      alerted: (f) => {
        alerted.push(f);
        return Promise.resolve();
      },
    },
    logger,
    intervalMs: 3_600_000,
    now: () => NOW,
  });
  await obtainer.run();
  await obtainer.stop();
  return { stored, recorded, alerted, published, asked };
}

describe("obtaining each fortnight's CAEA", () => {
  it("asks for the current and next fortnights; one granted before is looked up", async () => {
    const r = await pass({
      "202703/2": { kind: "otorgado", caea: granted(202703, 2) },
      "202704/1": { kind: "ya_otorgado" },
    });
    expect([...r.stored.keys()].sort()).toEqual(["202703/2", "202704/1"]);
    expect(r.recorded).toEqual([]);
    expect(r.published).toEqual([]);
  });

  it("alerts once a fortnight about to start has none: the event and the owner's e-mail", async () => {
    const r = await pass({
      "202703/2": { kind: "otorgado", caea: granted(202703, 2) },
      "202704/1": { kind: "fuera_de_ventana", mensaje: "Fecha de envío podrá ser desde…" },
    });
    expect(r.recorded).toMatchObject([{ periodo: 202704, orden: 1, fchVigDesde: "20270401" }]);
    expect(r.published.map((p) => p.subject)).toEqual([
      wsfe.caeaNoObtenido.subject,
      mail.mensajeJob.subject,
    ]);
    expect(r.published[0]!.body).toMatchObject({
      accountId: ACCOUNT,
      representada: CUIT,
      periodo: 202704,
      orden: 1,
    });
    expect(String(r.published[1]!.body.subject)).toContain("01/04/2027 al 15/04/2027");
    expect(r.alerted).toHaveLength(1);
  });

  it("without an owner to write to, the event still goes out; a failure is tried next pass", async () => {
    const noOwner = await pass({ "202703/2": "error", "202704/1": "error" }, false);
    expect(noOwner.recorded.map((f) => `${f.periodo}/${f.orden}`)).toEqual([
      "202703/2",
      "202704/1",
    ]);
    expect(noOwner.published.every((p) => p.subject === wsfe.caeaNoObtenido.subject)).toBe(true);
    expect(noOwner.alerted).toHaveLength(2);
    expect(noOwner.stored.size).toBe(0);
  });
});
