import type { Logger } from "@pasarela/telemetry";

export interface PeriodicPass {
  /** one pass now (or the one under way); never throws */
  run(): Promise<void>;
  /** no further pass starts; resolves once the pass under way (if any) has ended */
  stop(): Promise<void>;
  /** whether stop was asked for: a long pass checks it between steps */
  readonly stopped: boolean;
}

/**
 * Runs `pass` at once and then `intervalMs` after each one ends, one at a time; a pass that
 * fails is logged (as a warning, or quietly when the service is stopping and its connections
 * closing) and the next one runs as scheduled.
 */
export function startPeriodic(deps: {
  pass: () => Promise<void>;
  intervalMs: number;
  logger: Logger;
  /** what a failed pass is logged as */
  what: string;
}): PeriodicPass {
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  function run(): Promise<void> {
    running ??= deps
      .pass()
      .catch((error: unknown) => {
        if (stopped) deps.logger.debug({ err: error }, `${deps.what} ended by the stop`);
        else deps.logger.warn({ err: error }, `${deps.what} failed`);
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  function schedule(ms: number) {
    if (stopped) return;
    timer = setTimeout(() => {
      void run().then(() => schedule(deps.intervalMs));
    }, ms);
    timer.unref();
  }
  schedule(0);

  return {
    run,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
    get stopped() {
      return stopped;
    },
  };
}
