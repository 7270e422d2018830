import { request } from "node:http";
import { sleep } from "./wait.js";

/** One HTTP exchange through the balancer: where it went and what came back. */
export interface Balanced {
  status: number;
  text: string;
  /** the edge that answered (or the last one tried) */
  edge: string;
  /** edges that refused the connection (not listening): the request never left the client */
  refused: number;
  /** connections cut before an answer: the request may have been taken */
  reset: number;
  /** the system error of each connection that failed (ECONNREFUSED, ECONNRESET, ...) */
  errors: string[];
}

/**
 * What a load balancer in front of several edges does, on the client side: one new connection
 * per request (nothing kept alive across an edge's restart), round robin over the edges in
 * rotation, and an edge that refuses the connection (it is not listening: stopped, or not yet
 * back) skipped for the next one. As a Service takes a terminating pod out, an edge whose
 * /readyz says it is stopping (checked every `checkEveryMs`) leaves the rotation until it
 * answers otherwise. A connection cut after it was taken is tried again on the next edge too,
 * but counted: the caller decides whether that is acceptable (an Idempotency-Key makes it safe).
 */
export function balancer(edges: readonly string[], checkEveryMs = 500) {
  let next = 0;
  const stopping = new Set<string>();
  const check = (edge: string) =>
    fetch(`${edge}/readyz`, { signal: AbortSignal.timeout(2_000) })
      .then(async (r) => ((await r.json()) as { stopping?: boolean }).stopping === true)
      .catch(() => false)
      .then((out) => {
        if (out) stopping.add(edge);
        else stopping.delete(edge);
      });
  const checker = setInterval(() => {
    for (const edge of edges) void check(edge);
  }, checkEveryMs);
  checker.unref();
  /** the edges in rotation, all of them when none is */
  const rotation = () => {
    const serving = edges.filter((edge) => !stopping.has(edge));
    return serving.length > 0 ? serving : edges;
  };
  const once = (
    edge: string,
    method: string,
    path: string,
    headers: Record<string, string>,
    body: string | undefined,
    timeoutMs: number,
  ) =>
    new Promise<{ status: number; text: string } | { error: "refused" | "reset"; code: string }>(
      (resolve) => {
        const req = request(`${edge}${path}`, {
          method,
          agent: false,
          headers: {
            ...headers,
            ...(body === undefined ? {} : { "content-length": Buffer.byteLength(body) }),
          },
          timeout: timeoutMs,
        });
        req.on("response", (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
          );
          res.on("error", () => resolve({ error: "reset", code: "response cut" }));
        });
        req.on("timeout", () => req.destroy(new Error("timeout")));
        req.on("error", (error: NodeJS.ErrnoException) =>
          resolve({
            error: error.code === "ECONNREFUSED" ? "refused" : "reset",
            code: error.code ?? error.message,
          }),
        );
        req.end(body);
      },
    );

  return async function send(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
    timeoutMs = 60_000,
  ): Promise<Balanced> {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const out: Balanced = { status: 0, text: "", edge: "", refused: 0, reset: 0, errors: [] };
    // every edge twice at most, with a breath between rounds (an edge coming back)
    const first = next++;
    const serving = rotation();
    for (let attempt = 0; attempt < serving.length * 2; attempt++) {
      // from this request's turn on: the other callers' turns do not send it back to the same edge
      out.edge = serving[(first + attempt) % serving.length]!;
      const answer = await once(
        out.edge,
        method,
        path,
        { ...headers, ...(text === undefined ? {} : { "content-type": "application/json" }) },
        text,
        timeoutMs,
      );
      if ("status" in answer) return { ...out, ...answer };
      out[answer.error]++;
      out.errors.push(answer.code);
      if (attempt % serving.length === serving.length - 1) await sleep(200);
    }
    return out;
  };
}
