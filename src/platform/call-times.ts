import { performance } from 'node:perf_hooks';

export type CallTimeListener = (seconds: number, ok: boolean) => void;

/**
 * Tells whoever listens (the metrics) how long each call to an engine took and whether it
 * was answered. The engine's connection is made before anyone listens, and outlives them:
 * listeners come and go, and with none a call costs one check.
 */
export class CallTimes {
  private readonly listeners = new Set<CallTimeListener>();

  /** Hears every call from now on; answers what stops it. */
  listen(listener: CallTimeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Makes `call`, and tells its time once it settles, however it ends. */
  time<T>(call: () => Promise<T>): Promise<T> {
    if (this.listeners.size === 0) return call();
    const started = performance.now();
    const answer = call();
    const tell = (ok: boolean) => () => {
      const seconds = (performance.now() - started) / 1000;
      for (const listener of this.listeners) listener(seconds, ok);
    };
    answer.then(tell(true), tell(false));
    return answer;
  }
}
