import { describe, expect, it } from "vitest";
import { serviceEnv, startServices, StartFailure, type ServiceModule } from "../../src/process.js";

describe("a service's variables in a process of several", () => {
  it("gives a service its scoped variables over the process's, and no other service's", () => {
    const env = {
      NATS_USER: "anyone",
      LOG_LEVEL: "info",
      WSFE__NATS_USER: "wsfe",
      WSFE__NATS_PASSWORD: "p1",
      BILLING__NATS_USER: "billing",
      EDGE__LOG_LEVEL: "debug",
    };
    expect(serviceEnv(env, "wsfe")).toEqual({
      NATS_USER: "wsfe",
      NATS_PASSWORD: "p1",
      LOG_LEVEL: "info",
    });
    expect(serviceEnv(env, "edge")).toEqual({ NATS_USER: "anyone", LOG_LEVEL: "debug" });
  });

  it("reads a stand-in's name with its dash as an underscore", () => {
    expect(serviceEnv({ AUTHORITY_SIM__SIM_PORT: "1" }, "authority-sim")).toEqual({
      SIM_PORT: "1",
    });
  });
});

describe("starting the services of a process", () => {
  const recorder = () => {
    const events: string[] = [];
    const module = (name: string, fail?: string): ServiceModule => ({
      name,
      start: async (env) => {
        await new Promise((r) => setTimeout(r, 5));
        if (fail) throw new Error(fail);
        events.push(`start ${name} ${env.OWN ?? "-"}`);
        return { stop: () => Promise.resolve(void events.push(`stop ${name}`)) };
      },
    });
    return { events, module };
  };

  it("starts stage by stage and stops in the reverse order", async () => {
    const { events, module } = recorder();
    const running = await startServices([[module("billing"), module("wsfe")], [module("edge")]], {
      WSFE__OWN: "mine",
    });
    expect(running.services).toEqual(["billing", "wsfe", "edge"]);
    expect(events).toEqual(["start billing -", "start wsfe mine", "start edge -"]);
    await running.stop();
    expect(events.slice(3)).toEqual(["stop edge", "stop billing", "stop wsfe"]);
  });

  it("fails naming every service that did not start and why, and stops the ones that did", async () => {
    const { events, module } = recorder();
    const started = startServices(
      [
        [module("billing"), module("wsfe", "Invalid configuration: CURSOR_KEY (not set)")],
        [module("edge")],
      ],
      {},
    );
    await expect(started).rejects.toThrow(StartFailure);
    await expect(started).rejects.toMatchObject({
      failures: [{ service: "wsfe", reason: "Invalid configuration: CURSOR_KEY (not set)" }],
    });
    expect(events).toEqual(["start billing -", "stop billing"]);
  });

  it("takes a start that throws at once for a failed start", async () => {
    const sync: ServiceModule = {
      name: "pdf",
      start: () => {
        throw new Error("PDF_STORAGE_DIR (invalid)");
      },
    };
    await expect(startServices([[sync]], {})).rejects.toMatchObject({
      failures: [{ service: "pdf", reason: "PDF_STORAGE_DIR (invalid)" }],
    });
  });
});
