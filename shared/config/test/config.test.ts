import { describe, expect, it } from "vitest";
import { ConfigError, envPort, natsConfig, parseConfig, z } from "../src/index.js";

describe("parseConfig", () => {
  it("applies defaults and coerces values", () => {
    const config = parseConfig(z.object({ ...natsConfig, EDGE_PORT: envPort().default(3000) }), {
      EDGE_PORT: "8080",
    });
    expect(config.NATS_URL).toBe("nats://127.0.0.1:4222");
    expect(config.EDGE_PORT).toBe(8080);
  });

  it("fails naming the variable", () => {
    expect(() => parseConfig(z.object({ EDGE_PORT: envPort() }), { EDGE_PORT: "abc" })).toThrow(
      ConfigError,
    );
    expect(() => parseConfig(z.object({ EDGE_PORT: envPort() }), { EDGE_PORT: "abc" })).toThrow(
      /EDGE_PORT/,
    );
  });
});
