/** What the global setup hands every test of the run (see global-setup.ts). */
declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    natsUrl: string;
    natsPrefix: string;
    /** The run's root of caller assertion secrets (each service's is derived from it and its name) and its kid. */
    callerAssertionRoot: string;
    callerAssertionKeyId: string;
    /** The service a test's assertions are for by default: the project's name (bookings' tests call bookings). */
    callerAssertionAudience: string;
  }
}

export {};
