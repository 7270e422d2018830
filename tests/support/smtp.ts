import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  /** the envelope's recipients */
  rcptTo: string[];
  parsed: ParsedMail;
}

export interface TestSmtp {
  readonly url: string;
  /** every message accepted so far */
  readonly received: ReceivedMail[];
  /** RCPT TO attempts per address, refused ones included */
  attempts(address: string): number;
  /** lets the held RCPT of `address` go on (see the local parts below) */
  release(address: string): void;
  /** resolves once the RCPT of `address` is being held */
  held(address: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A real SMTP server inside the test, whose answer depends on the recipient's local part:
 * `temporal-<n>-…` is refused with 451 the first n times, `rechazo-…` always with 550,
 * `espera-…` is held until `release`; anything else is accepted and kept, parsed.
 */
export async function startTestSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const attempts = new Map<string, number>();
  const releases = new Map<string, () => void>();
  const holdWaiters = new Map<string, () => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(address, _session, callback) {
      const to = address.address.toLowerCase();
      const count = (attempts.get(to) ?? 0) + 1;
      attempts.set(to, count);
      const temporal = /^temporal-(\d+)-/.exec(to);
      if (temporal && count <= Number(temporal[1])) {
        const error = new Error("4.3.0 Servidor ocupado, reintentá más tarde") as Error & {
          responseCode: number;
        };
        error.responseCode = 451;
        return callback(error);
      }
      if (to.startsWith("rechazo-")) {
        const error = new Error("5.1.1 El buzón no existe") as Error & { responseCode: number };
        error.responseCode = 550;
        return callback(error);
      }
      if (to.startsWith("espera-")) {
        releases.set(to, () => callback());
        holdWaiters.get(to)?.();
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          received.push({ rcptTo: session.envelope.rcptTo.map((r) => r.address), parsed });
          callback();
        })
        .catch((error: unknown) => callback(error as Error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    attempts: (to) => attempts.get(to.toLowerCase()) ?? 0,
    release: (to) => releases.get(to.toLowerCase())?.(),
    held: (to) =>
      releases.has(to.toLowerCase())
        ? Promise.resolve()
        : new Promise<void>((resolve) => holdWaiters.set(to.toLowerCase(), resolve)),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
