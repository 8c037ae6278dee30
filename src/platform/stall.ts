/**
 * Tells an engine that stopped answering from one that is only slow, for the calls made
 * through one connection or pool.
 *
 * A stopped server (SIGSTOP, or a partition that leaves connections open) still accepts
 * what is written to it, so a call waits for an answer that may never come: its own driver
 * notices nothing. Here every call gets a deadline. The first call past it marks the engine
 * stalled; from then on calls fail at once, without writing anything, and a probe asks the
 * engine again and again until it answers, which ends the stall. So one request waits out
 * the deadline, the others are answered 503 straight away, and service resumes by itself.
 */
export interface StallGuardOptions {
  /** The longest a call waits for its answer. */
  deadlineMs: number;
  /** Resolves once the engine answers again; a rejection is tried again after `retryMs`. */
  probe: () => Promise<unknown>;
  retryMs: number;
  /** The error a refused or late call fails with (a 503 for the error handler). */
  unavailable: (cause?: unknown) => Error;
  onStall?: () => void;
  onRecover?: () => void;
}

export class StallGuard {
  private stalled = false;
  private closed = false;

  constructor(private readonly opts: StallGuardOptions) {}

  get isStalled(): boolean {
    return this.stalled;
  }

  /** Fails at once while the engine is stalled. */
  check(): void {
    if (this.stalled) throw this.opts.unavailable();
  }

  /**
   * Makes `call` unless the engine is stalled, and fails it once it has waited `deadlineMs`
   * (or `deadlineMs` given here) for its answer; `signal` then aborts, for a call that can
   * be cancelled. Whatever a late call does afterwards is ignored.
   */
  run<T>(call: (signal: AbortSignal) => Promise<T>, deadlineMs = this.opts.deadlineMs): Promise<T> {
    if (this.stalled) return Promise.reject(this.opts.unavailable());
    const late = new AbortController();
    const answer = call(late.signal);
    return new Promise<T>((resolve, reject) => {
      let done = false;
      const timer = setTimeout(() => {
        // An answer that waited behind a busy event loop is read in the poll phase, which
        // comes after the timers: look once more after it before calling the engine stalled.
        setImmediate(() => {
          if (done) return;
          done = true;
          this.stall();
          const cause = new Error(`no answer within ${deadlineMs} ms`);
          late.abort(cause);
          reject(this.opts.unavailable(cause));
        });
      }, deadlineMs);
      answer.then(
        (value) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          resolve(value);
        },
        (err: unknown) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          reject(err instanceof Error ? err : new Error(String(err)));
        },
      );
    });
  }

  /**
   * Whether `call` answers within `timeoutMs`, for a health check: false at once while the
   * engine is stalled, and a slow answer here does not mark it stalled.
   */
  async answers(call: (signal: AbortSignal) => Promise<unknown>, timeoutMs: number): Promise<boolean> {
    if (this.stalled) return false;
    const late = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const answered = call(late.signal).then(
      () => true,
      () => false,
    );
    try {
      const result = await Promise.race([answered, expired]);
      if (!result) late.abort();
      return result;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Marks the engine stalled, as a call timed out by its own driver shows it to be. */
  stall(): void {
    if (this.stalled || this.closed) return;
    this.stalled = true;
    this.opts.onStall?.();
    void this.watch();
  }

  /** Stops probing; for shutting the connection down. */
  close(): void {
    this.closed = true;
  }

  private async watch(): Promise<void> {
    while (this.stalled && !this.closed) {
      try {
        await this.opts.probe();
        this.stalled = false;
        this.opts.onRecover?.();
      } catch {
        await new Promise((resolve) => setTimeout(resolve, this.opts.retryMs).unref());
      }
    }
  }
}
