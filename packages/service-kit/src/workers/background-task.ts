/** Something that runs beside the HTTP server: an outbox relay, a consumer, a poller. Started and stopped by the kit. */
export interface BackgroundTask {
  start(): Promise<void>;
  stop(): Promise<void>;
}
