import type { Bus } from "./bus.js";

/** A durable JetStream consumer this process reads from: its stream and its name. */
export interface DurableRef {
  readonly stream: string;
  readonly durable: string;
}

// by bus, the durables its consumers read, each counted once per running consumer
const tracked = new WeakMap<Bus, Map<string, { ref: DurableRef; count: number }>>();

/** Records a running consumer of `ref`; the function returned forgets it when it stops. */
export function trackDurable(bus: Bus, ref: DurableRef): () => void {
  let refs = tracked.get(bus);
  if (!refs) {
    refs = new Map<string, { ref: DurableRef; count: number }>();
    tracked.set(bus, refs);
  }
  const key = `${ref.stream}\u0000${ref.durable}`;
  const entry = refs.get(key) ?? { ref, count: 0 };
  entry.count++;
  refs.set(key, entry);
  let forgotten = false;
  return () => {
    if (forgotten) return;
    forgotten = true;
    if (--entry.count === 0) refs.delete(key);
  };
}

/** The durables this bus's consumers read now, events and jobs alike (for their lag). */
export function durablesOf(bus: Bus): DurableRef[] {
  return [...(tracked.get(bus)?.values() ?? [])].map(({ ref }) => ref);
}
