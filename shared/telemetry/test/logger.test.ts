import { Writable } from "node:stream";
import { context, trace } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import { createLogger, startTracing } from "../src/index.js";

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, destination };
}

describe("logger", () => {
  it("redacts secrets wherever they appear", () => {
    const { lines, destination } = capture();
    const logger = createLogger({ service: "test", destination });
    logger.info(
      { secret: "pk_live_abc", key: { privateKey: "-----BEGIN", token: "t0k", sign: "s1g" } },
      "hello",
    );
    const text = lines.join("");
    expect(text).toContain("hello");
    for (const leaked of ["pk_live_abc", "-----BEGIN", "t0k", "s1g"]) {
      expect(text).not.toContain(leaked);
    }
  });

  it("writes the active trace id on each line", () => {
    const { lines, destination } = capture();
    const { tracer } = startTracing({ service: "test" });
    const logger = createLogger({ service: "test", destination });
    const span = tracer.startSpan("work");
    context.with(trace.setSpan(context.active(), span), () => logger.info("inside"));
    span.end();
    const line = JSON.parse(lines[0] ?? "{}") as { trace_id?: string };
    expect(line.trace_id).toBe(span.spanContext().traceId);
    expect(line.trace_id).toMatch(/^[0-9a-f]{32}$/);
  });
});
