import type { RunningService } from '@app/service-testing';
import type { Config } from '../../src/config.js';

type Subscription = ReturnType<RunningService<Config>['infra']['bus']['nc']['subscribe']>;

interface Envelope {
  id: string;
  type: string;
  organization_id: string;
  data: Record<string, unknown>;
}

/** Collects the domain events published on `subjects` (core NATS sees every JetStream publish). */
export class EventRecorder {
  readonly received: Envelope[] = [];
  private readonly subscriptions: Subscription[];

  constructor(running: RunningService<Config>, subjects: string[]) {
    const decoder = new TextDecoder();
    this.subscriptions = subjects.map((subject) =>
      running.infra.bus.nc.subscribe(running.infra.bus.subject(subject), {
        callback: (_error, msg) => {
          this.received.push(JSON.parse(decoder.decode(msg.data)) as Envelope);
        },
      }),
    );
  }

  /** Waits until `count` events match, then gives them (fails after 10 s). */
  async waitFor(predicate: (event: Envelope) => boolean, count = 1): Promise<Envelope[]> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const matching = this.received.filter(predicate);
      if (matching.length >= count) return matching;
      if (Date.now() > deadline) throw new Error(`expected ${count} events, got ${matching.length}: ${JSON.stringify(this.received)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  close(): void {
    for (const subscription of this.subscriptions) subscription.unsubscribe();
  }
}
