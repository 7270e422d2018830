import { connect } from "node:net";

/** The first response read off a raw socket, and whether the server closed the connection. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  closed: boolean;
}

/**
 * Writes `chunks` on a fresh TCP connection, byte for byte (light-my-request cannot send a
 * malformed request line), and reads the first response. The socket is left open after the
 * last chunk, as a stalling client would leave it; `deadlineMs` bounds the wait, and no answer
 * by then is `undefined`.
 */
export function exchange(
  port: number,
  chunks: readonly (string | Buffer)[],
  deadlineMs = 15_000,
): Promise<RawAnswer | undefined> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: "127.0.0.1" });
    let received = Buffer.alloc(0);
    let answer: Omit<RawAnswer, "closed"> | undefined;
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer && { ...answer, closed });
    };
    const timer = setTimeout(() => finish(false), deadlineMs);
    const parse = () => {
      const text = received.toString("utf8");
      const end = text.indexOf("\r\n\r\n");
      if (end < 0) return;
      const [statusLine = "", ...lines] = text.slice(0, end).split("\r\n");
      const headers = Object.fromEntries(
        lines.map((line) => {
          const colon = line.indexOf(":");
          return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
        }),
      );
      const length = Number(headers["content-length"] ?? 0);
      const body = received.subarray(Buffer.byteLength(text.slice(0, end + 4)));
      if (body.length < length) return;
      answer = {
        status: Number(statusLine.split(" ")[1]),
        headers,
        body: body.subarray(0, length).toString("utf8"),
      };
    };
    socket.on("data", (data: Buffer) => {
      received = Buffer.concat([received, data]);
      if (!answer) parse();
      // a closing answer is complete when the server ends the connection
      if (answer && answer.headers.connection !== "close") finish(false);
    });
    socket.on("close", () => finish(true));
    socket.on("error", (error: NodeJS.ErrnoException) => {
      // the server may reset the connection right after answering
      if (error.code !== "ECONNRESET" && error.code !== "EPIPE") reject(error);
    });
    socket.on("connect", () => {
      for (const chunk of chunks) socket.write(chunk);
    });
  });
}
