import { describe, expect, it } from "vitest";
import { natsServers } from "../../src/index.js";

describe("the servers NATS_URL names", () => {
  it("is one URL, or a cluster's URLs separated by commas (spaces and empty entries ignored)", () => {
    expect(natsServers("nats://127.0.0.1:4222")).toEqual(["nats://127.0.0.1:4222"]);
    expect(natsServers("nats://a:4222, nats://b:4222,nats://c:4222,")).toEqual([
      "nats://a:4222",
      "nats://b:4222",
      "nats://c:4222",
    ]);
  });
});
