#!/usr/bin/env node
// The local stand-ins in one process: `node local/stack/dist/src/stand-ins.js [<stand-in> ...]`
// runs the authority simulator, the SMTP sink and the stand-in of Mercado Pago (all three
// when none is named), each configured by its own variables as it would be alone. A start
// that fails names the stand-in and why, and exits 1; SIGTERM or SIGINT stops them all and
// exits 0. Never part of a production deployment.

type Env = Readonly<Record<string, string | undefined>>;
type Start = (env: Env) => Promise<{ stop(): Promise<void> }>;

/** Each stand-in by the name that picks it; only the ones asked for are loaded. */
const standIns: Record<string, () => Promise<Start>> = {
  "authority-sim": async () => (await import("@pasarela/authority-sim")).startSimulatorFromEnv,
  "mail-sink": async () => (await import("@pasarela/smtp-sink")).startMailSinkFromEnv,
  "payments-sim": async () =>
    (await import("@pasarela/payments-sim")).startPaymentsSimulatorFromEnv,
};

const fatal = (name: string, error: unknown) =>
  process.stderr.write(
    `${JSON.stringify({ level: "fatal", service: name, msg: error instanceof Error ? error.message : String(error) })}\n`,
  );

async function main(names: readonly string[]): Promise<void> {
  const outcomes = await Promise.allSettled(
    names.map(async (name) => (await standIns[name]!())(process.env)),
  );
  const running = outcomes.flatMap((o) => (o.status === "fulfilled" ? [o.value] : []));
  const failed = outcomes.flatMap((o, i) =>
    o.status === "rejected" ? [[names[i]!, o.reason]] : [],
  );
  if (failed.length > 0) {
    for (const [name, reason] of failed) fatal(name as string, reason);
    await Promise.all(running.map((r) => r.stop()));
    process.exit(1);
  }
  let stopping = false;
  const stop = () => {
    if (stopping) process.exit(1);
    stopping = true;
    void Promise.all(running.map((r) => r.stop())).then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

const args = process.argv.slice(2);
const unknown = args.filter((arg) => !Object.hasOwn(standIns, arg));
if (unknown.length > 0) {
  process.stderr.write(
    `unknown stand-in ${unknown.join(", ")}: the stand-ins are ${Object.keys(standIns).join(", ")}\n`,
  );
  process.exitCode = 2;
} else {
  await main(args.length > 0 ? args : Object.keys(standIns));
}
