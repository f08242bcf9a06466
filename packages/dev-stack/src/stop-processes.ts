import type { ChildProcess } from 'node:child_process';

/** SIGTERM to every process (graceful: stop accepting, drain, close NATS and the pool), SIGKILL after 10 s. */
export async function stopAll(children: readonly { child: ChildProcess }[]): Promise<void> {
  await Promise.all(
    children.map(
      ({ child }) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
          child.once('exit', () => {
            clearTimeout(kill);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
}
