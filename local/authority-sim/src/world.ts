import type { LoadedCa } from "./ca.js";
import type { EnvState, Environment } from "./state.js";

/** One environment's state plus what handlers need around it. */
export interface World {
  readonly environment: Environment;
  readonly state: EnvState;
  readonly ca: LoadedCa;
  /** The simulated clock: wall time plus the environment's control-set offset. */
  now(): number;
  /** Persists the state after a mutation (no-op without SIM_STATE_FILE). */
  commit(): void;
  count(operation: string): void;
  /** an injected fault, as `<operation> <mode>` */
  countFault(what: string): void;
}

export interface HandlerResult {
  status: number;
  contentType: string;
  body: string;
}
