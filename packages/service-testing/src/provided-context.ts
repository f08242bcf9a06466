/** What the global setup hands every test of the run (see global-setup.ts). */
declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    natsUrl: string;
    natsPrefix: string;
    /** The run's caller assertion keys (the gateway's PKCS#8 PEM and kid, the services' JWKS), made once per run. */
    callerAssertionPrivateKey: string;
    callerAssertionKeyId: string;
    callerAssertionPublicKeys: string;
  }
}

export {};
