import type { Running } from './harness.js';

export interface Envelope {
  id: string;
  type: string;
  schema_version: number;
  occurred_at: string;
  organization_id: string;
  correlation_id: string | null;
  data: Record<string, unknown>;
}

/**
 * Listens on the run's domain-event subjects over a real NATS connection and keeps what arrives, so a
 * test can wait for the envelopes of its own organization.
 */
export async function listen(running: Running, subjects: string[]) {
  const { bus } = running.infra;
  const received: Envelope[] = [];
  const subscriptions = subjects.map((subject) =>
    bus.nc.subscribe(bus.subject(subject), {
      callback: (error, msg) => {
        if (!error) received.push(msg.json<Envelope>());
      },
    }),
  );
  await bus.nc.flush();
  return {
    /** The envelopes for `organizationId`, once `count` of them have arrived. */
    async forOrganization(organizationId: string, count: number): Promise<Envelope[]> {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const mine = received.filter((envelope) => envelope.organization_id === organizationId);
        if (mine.length >= count) return mine;
        if (Date.now() > deadline) throw new Error(`expected ${count} events, got ${mine.length}: ${JSON.stringify(mine)}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close(): void {
      for (const subscription of subscriptions) subscription.unsubscribe();
    },
  };
}
