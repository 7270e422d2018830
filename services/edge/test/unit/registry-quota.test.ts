import { padron } from "@pasarela/contracts";
import { appError } from "@pasarela/errors";
import type { FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import { EdgeError } from "../../src/http/edge-error.js";
import { registryLookup, type RegistryQuota } from "../../src/routes/padron.js";
import type { Caller } from "../../src/routes/route-module.js";

const request = {} as FastifyRequest;
const body = {
  environment: "produccion" as const,
  representada: "20111111112",
  idPersona: "30712345671",
};

/** A quota that records what happened to each hold, and refuses once `left` is spent. */
function recordingQuota(left: number) {
  const events: string[] = [];
  const quota: RegistryQuota = {
    reserve: (_call, _request, environment) => {
      if (left <= 0) return Promise.reject(new EdgeError(appError("QUOTA_PADRONES_EXHAUSTED")));
      left--;
      events.push(`reserve ${environment}`);
      return Promise.resolve({
        commit: () => {
          events.push("commit");
          return Promise.resolve();
        },
        release: () => {
          events.push("release");
          return Promise.resolve();
        },
      });
    },
  };
  return { quota, events };
}

describe("registryLookup: the one place a registry lookup is metered", () => {
  it("commits the hold when the lookup answers", async () => {
    const { quota, events } = recordingQuota(1);
    const call = (() => Promise.resolve({ idPersonas: [] })) as unknown as Caller;
    await expect(
      registryLookup(call, request, padron.documentoList, { ...body, documento: "1" }, quota),
    ).resolves.toEqual({
      idPersonas: [],
    });
    expect(events).toEqual(["reserve produccion", "commit"]);
  });

  it("releases the hold when the lookup fails, and answers the failure", async () => {
    const { quota, events } = recordingQuota(1);
    const failure = new EdgeError(appError("PERSONA_NOT_FOUND"));
    const call = (() => Promise.reject(failure)) as unknown as Caller;
    await expect(registryLookup(call, request, padron.a13Get, body, quota)).rejects.toBe(failure);
    expect(events).toEqual(["reserve produccion", "release"]);
  });

  it("asks nothing of the registry when the quota refuses", async () => {
    const { quota } = recordingQuota(0);
    let asked = 0;
    const call = (() => {
      asked++;
      return Promise.resolve({});
    }) as unknown as Caller;
    await expect(registryLookup(call, request, padron.a13Get, body, quota)).rejects.toMatchObject({
      appError: { code: "QUOTA_PADRONES_EXHAUSTED" },
    });
    expect(asked).toBe(0);
  });
});
