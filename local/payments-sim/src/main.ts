import { startPaymentsSimulator } from "./index.js";

// PAYMENTS_SIM_PORT / PAYMENTS_SIM_HOST: where the local Mercado Pago listens
const port = Number(process.env.PAYMENTS_SIM_PORT ?? 4500);
const host = process.env.PAYMENTS_SIM_HOST ?? "127.0.0.1";

startPaymentsSimulator({ port, host })
  .then((sim) => {
    process.stdout.write(
      `${JSON.stringify({ level: "info", service: "payments-sim", url: sim.url, msg: "local Mercado Pago listening" })}\n`,
    );
    const stop = () => void sim.stop().then(() => process.exit(0));
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  })
  .catch((error: unknown) => {
    process.stderr.write(
      `${JSON.stringify({ level: "fatal", service: "payments-sim", msg: String(error) })}\n`,
    );
    process.exit(1);
  });
