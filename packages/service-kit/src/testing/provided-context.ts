/** What the global setup hands every test of the run (see global-setup.ts). */
declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    natsUrl: string;
    natsPrefix: string;
  }
}

export {};
