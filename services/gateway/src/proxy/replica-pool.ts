/**
 * The replicas of one service, balanced round-robin over those whose `/readyz` last answered 200.
 * A replica that is shutting down reports not-ready while it still serves (SHUTDOWN_DRAIN_MS), so the
 * probe moves traffic away before its listener closes and no request is dropped. With one replica, or
 * when none is ready, every replica stays a candidate: the request then fails as it must (503), rather
 * than the gateway refusing on a stale probe.
 */
export class ReplicaPool {
  private next = 0;
  private readonly notReady = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private probing = false;

  constructor(
    private readonly urls: string[],
    private readonly probe: { intervalMs: number; timeoutMs: number },
  ) {}

  pick(): string {
    const ready = this.urls.filter((url) => !this.notReady.has(url));
    const candidates = ready.length > 0 ? ready : this.urls;
    const url = candidates[this.next % candidates.length] as string;
    this.next += 1;
    return url;
  }

  start(): void {
    if (this.urls.length < 2 || this.timer) return;
    this.timer = setInterval(() => void this.probeAll(), this.probe.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Asks every replica once; a probe that fails or outlasts its timeout counts as not ready. */
  async probeAll(): Promise<void> {
    if (this.probing) return;
    this.probing = true;
    try {
      await Promise.all(
        this.urls.map(async (url) => {
          const ready = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(this.probe.timeoutMs) }).then(
            (response) => response.ok,
            () => false,
          );
          if (ready) this.notReady.delete(url);
          else this.notReady.add(url);
        }),
      );
    } finally {
      this.probing = false;
    }
  }
}
