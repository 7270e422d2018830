import { describe, expect, it } from "vitest";
import { natsConfig, natsCredentials, parseConfig, z } from "../src/index.js";

const parse = (env: Record<string, string>) =>
  natsCredentials(parseConfig(z.object({ ...natsConfig }), env));

describe("NATS credentials", () => {
  it("connects anonymously without any, with a user and password, or with a credentials file", () => {
    expect(parse({})).toBeUndefined();
    expect(parse({ NATS_USER: "edge", NATS_PASSWORD: "secreto" })).toEqual({
      user: "edge",
      password: "secreto",
    });
    expect(parse({ NATS_CREDS: "/run/secrets/edge.creds", NATS_USER: "" })).toEqual({
      credsFile: "/run/secrets/edge.creds",
    });
  });

  it("names the variable missing from a half-given pair, and refuses odd user names", () => {
    expect(() => parse({ NATS_USER: "edge" })).toThrow(/NATS_PASSWORD \(not set\)/);
    expect(() => parse({ NATS_PASSWORD: "x" })).toThrow(/NATS_USER \(not set\)/);
    expect(() => parse({ NATS_USER: "edge.>", NATS_PASSWORD: "x" })).toThrow(/NATS_USER/);
  });
});
