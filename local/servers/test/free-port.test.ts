import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { freePort } from "../src/index.js";

const ephemeralLow = Number(
  readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0],
);

describe("freePort", () => {
  it("never hands out a port twice, even before anyone binds it", async () => {
    const ports: number[] = [];
    for (let i = 0; i < 300; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
  });

  it("takes a test worker's ports below the kernel's ephemeral range, from the worker's own block", async () => {
    const poolId = Number(process.env.VITEST_POOL_ID);
    expect(poolId).toBeGreaterThanOrEqual(1);
    const port = await freePort();
    expect(port).toBeLessThan(ephemeralLow);
    const block = Math.floor((port - (ephemeralLow - 12 * 1_024)) / 1_024);
    expect(block).toBe((poolId - 1) % 12);
  });

  it("skips a port something already listens on", async () => {
    const taken = await freePort();
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(taken, "127.0.0.1", resolve));
    try {
      for (let i = 0; i < 1_100; i++) expect(await freePort()).not.toBe(taken);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
