import { describe, expect, it } from "vitest";
import { gatewayServices, parseTargets } from "../../src/index.js";

describe("what a gateway process runs", () => {
  it("runs every service with no argument or `all`", () => {
    for (const args of [[], ["all"]]) {
      expect(parseTargets(args)).toEqual({ ok: true, name: "all", services: gatewayServices });
    }
  });

  it("runs the services named, in start order, once each", () => {
    expect(parseTargets(["edge", "wsfe", "wsfe"])).toEqual({
      ok: true,
      name: "wsfe+edge",
      services: ["wsfe", "edge"],
    });
    expect(parseTargets(["wsfe"])).toMatchObject({ name: "wsfe", services: ["wsfe"] });
  });

  it("refuses an unknown name, listing the services there are", () => {
    const parsed = parseTargets(["wsfe", "facturas"]);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error).toBe(
      `unknown service facturas: the services are ${gatewayServices.join(", ")}, or all for every one`,
    );
  });

  it("starts the edge last", () => {
    expect(gatewayServices.at(-1)).toBe("edge");
    expect(new Set(gatewayServices).size).toBe(11);
  });
});
