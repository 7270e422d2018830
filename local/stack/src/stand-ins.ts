#!/usr/bin/env node
// The local stand-ins in one process: `node local/stack/dist/src/stand-ins.js [<stand-in> ...]`
// runs the authority simulator, the SMTP sink and the stand-in of Mercado Pago (all three
// when none is named), each configured by its own variables as it would be alone. Never part
// of a production deployment.
import { startSimulatorFromEnv } from "@pasarela/authority-sim";
import { startPaymentsSimulatorFromEnv } from "@pasarela/payments-sim";
import { runProcess, type ServiceModule } from "@pasarela/service";
import { startMailSinkFromEnv } from "@pasarela/smtp-sink";

/** Each stand-in by the name that picks it. */
const standIns = {
  "authority-sim": startSimulatorFromEnv,
  "mail-sink": startMailSinkFromEnv,
  "payments-sim": startPaymentsSimulatorFromEnv,
} as const;

type StandInName = keyof typeof standIns;

const isStandIn = (name: string): name is StandInName => Object.hasOwn(standIns, name);

const args = process.argv.slice(2);
const unknown = args.filter((arg) => !isStandIn(arg));
if (unknown.length > 0) {
  process.stderr.write(
    `unknown stand-in ${unknown.join(", ")}: the stand-ins are ${Object.keys(standIns).join(", ")}\n`,
  );
  process.exitCode = 2;
} else {
  const names = args.length > 0 ? args.filter(isStandIn) : (Object.keys(standIns) as StandInName[]);
  const modules: ServiceModule[] = names.map((name) => ({ name, start: standIns[name] }));
  runProcess({ name: "stand-ins", stages: [modules], env: process.env });
}
