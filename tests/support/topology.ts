/**
 * The production topology, in one place: what deploy/kubernetes and docker-compose.yml run and
 * what the cluster test (tests/e2e/cluster.test.ts) starts on this machine. tests/deploy
 * checks that the manifests say the same.
 */
export const topology = {
  /** nats-servers in the JetStream cluster */
  natsNodes: 3,
  /** replicas of the EVENTS stream and the job queues (NATS_STREAM_REPLICAS) */
  streamReplicas: 3,
  /** processes of every gateway service, the edge included */
  serviceReplicas: 2,
  /** how long a process drains on SIGTERM (SHUTDOWN_DRAIN_MS) */
  shutdownDrainMs: 20_000,
  /** how long the orchestrator waits after SIGTERM before SIGKILL: above the drain bound */
  terminationGraceSeconds: 30,
} as const;
