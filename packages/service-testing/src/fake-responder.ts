import { randomBytes } from 'node:crypto';
import type { RequestContract } from '@app/contracts';
import { pino } from 'pino';
import { inject } from 'vitest';
import type { z } from 'zod';
import { type AppError, Bus } from '@app/service-kit';
import './provided-context.js';

/** One request the fake neighbour took: the parsed payload and the caller's request id. */
export interface ReceivedRequest<Req> {
  request: Req;
  requestId: string | undefined;
}

type Behaviour = (request: unknown, requestId: string | undefined) => Promise<unknown>;

/**
 * Other services at their NATS boundary, as each test states them: what they answer to a request contract, which
 * error they reply, or that they never answer. Served by the kit's own `Bus`, so replies travel exactly as a real
 * service's do. A contract that was never set has no responder at all (the caller sees no answer: its 503).
 */
export class FakeResponder {
  private readonly behaviours = new Map<string, Behaviour>();
  private readonly requests = new Map<string, ReceivedRequest<unknown>[]>();

  private constructor(
    private readonly bus: Bus,
    /** The NATS prefix it answers on: start the service under test with it (`NATS_PREFIX`). */
    readonly prefix: string,
  ) {}

  /** A fake neighbour on `prefix` (one of the test file's own, see `ownNatsPrefix`) of the run's NATS. */
  static async start(prefix: string, natsUrl: string = inject('natsUrl')): Promise<FakeResponder> {
    const bus = await Bus.connect({
      url: natsUrl,
      prefix,
      service: 'fake-neighbours',
      requestTimeoutMs: 1_000,
      log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    });
    return new FakeResponder(bus, prefix);
  }

  /**
   * From now on, `contract`'s requests are answered by `reply` (a returned value, or a thrown AppError). A reply
   * object written inline loses its literal types to inference: give it a type (`z.input<typeof contract.reply>`).
   */
  answer<Req extends z.ZodType, Res extends z.ZodType>(
    contract: RequestContract<Req, Res>,
    reply: (request: z.output<Req>, requestId: string | undefined) => z.input<Res> | Promise<z.input<Res>>,
  ): Promise<void> {
    return this.behave(contract, async (request, requestId) => reply(request as z.output<Req>, requestId));
  }

  /** From now on, `contract`'s requests are answered with `error` (its code, status and message). */
  fail<Req extends z.ZodType, Res extends z.ZodType>(contract: RequestContract<Req, Res>, error: AppError): Promise<void> {
    return this.behave(contract, () => Promise.reject(error));
  }

  /** From now on, `contract`'s requests are taken and never answered (a hung neighbour: the caller times out). */
  silent<Req extends z.ZodType, Res extends z.ZodType>(contract: RequestContract<Req, Res>): Promise<void> {
    return this.behave(contract, () => new Promise<never>(() => undefined));
  }

  /** The requests of `contract` taken since the start (or the last `forget`), oldest first. */
  received<Req extends z.ZodType, Res extends z.ZodType>(contract: RequestContract<Req, Res>): ReceivedRequest<z.output<Req>>[] {
    return [...(this.requests.get(contract.subject) ?? [])] as ReceivedRequest<z.output<Req>>[];
  }

  /** Forgets the requests taken so far (what each contract answers stays). */
  forget(): void {
    this.requests.clear();
  }

  async stop(): Promise<void> {
    await this.bus.close();
  }

  private async behave<Req extends z.ZodType, Res extends z.ZodType>(
    contract: RequestContract<Req, Res>,
    behaviour: Behaviour,
  ): Promise<void> {
    const served = this.behaviours.has(contract.subject);
    this.behaviours.set(contract.subject, behaviour);
    if (served) return;
    await this.bus.serve(contract, async (request, requestId) => {
      const log = this.requests.get(contract.subject) ?? [];
      log.push({ request, requestId });
      this.requests.set(contract.subject, log);
      const current = this.behaviours.get(contract.subject) as Behaviour;
      return (await current(request, requestId)) as z.input<Res>;
    });
    // The endpoint is in place at the server before the test sends its first request.
    await this.bus.nc.flush();
  }
}

/** A NATS prefix of the caller's own under the run's: no other file's services or fakes answer on it. */
export function ownNatsPrefix(label = 'own'): string {
  return `${inject('natsPrefix')}_${label}${randomBytes(3).toString('hex')}`;
}

/** Starts a fake neighbour on `prefix`: `const neighbours = await fakeResponder(prefix)`. */
export function fakeResponder(prefix: string = ownNatsPrefix('fake')): Promise<FakeResponder> {
  return FakeResponder.start(prefix);
}
