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
  /**
   * how long an edge serves on after SIGTERM with /readyz answering 503 before it stops
   * listening (EDGE_STOP_DELAY_MS): the load balancer's readiness period, and some
   */
  edgeStopDelayMs: 5_000,
  /** how long the orchestrator waits after SIGTERM before SIGKILL: above delay and drain */
  terminationGraceSeconds: 30,
} as const;
