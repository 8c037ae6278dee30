import type { Logger } from './logger';

/**
 * Runs `run` now and then again `everyMs` after each run ends (never two at once), until
 * stopped; a failed run is logged and the next goes ahead. `stop` waits for a run under way.
 * The timer never keeps the process alive.
 */
export class Periodic {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = true;

  constructor(private readonly opts: { run: () => Promise<unknown>; everyMs: number; logger: Logger; failure: string }) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.opts
        .run()
        .catch((err: unknown) => this.opts.logger.warn({ err }, this.opts.failure))
        .then(() => {
          this.running = undefined;
          this.schedule(this.opts.everyMs);
        });
    }, delayMs);
    this.timer.unref();
  }
}
