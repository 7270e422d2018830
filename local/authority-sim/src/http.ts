import type { IncomingMessage, ServerResponse } from "node:http";
import type { FaultConfig, FaultMode } from "./state.js";
import type { HandlerResult } from "./world.js";

/** The simulator's HTTP plumbing: bodies read with a bound, answers written, faults drawn. */

/** The largest request body the simulator reads; a larger one is refused unread. */
const MAX_BODY = 10 * 1024 * 1024;

/** The fault a request gets: `mode` with its rate, else each of `mix` with its own. */
export function drawFault(fault: FaultConfig): FaultMode {
  let draw = Math.random();
  for (const { mode, rate } of [{ mode: fault.mode, rate: fault.rate }, ...(fault.mix ?? [])]) {
    if (mode !== "none" && draw < rate) return mode;
    draw -= rate;
  }
  return "none";
}

export function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        if (!done) resolve(undefined);
        done = true;
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (!done) resolve(Buffer.concat(chunks).toString("utf8"));
      done = true;
    });
    req.on("error", () => {
      if (!done) resolve(undefined);
      done = true;
    });
  });
}

export function send(res: ServerResponse, result: HandlerResult): void {
  res.writeHead(result.status, {
    "content-type": result.contentType,
    "content-length": Buffer.byteLength(result.body),
  });
  res.end(result.body);
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  send(res, { status, contentType: "application/json; charset=utf-8", body: JSON.stringify(body) });
}
