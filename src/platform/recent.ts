/** The answer of the last look, while it is younger than `freshForMs`; a failed look is not kept. */
export class RecentLook<T> {
  private last: { at: number; value: Promise<T> } | undefined;

  constructor(private readonly freshForMs: number) {}

  get(look: () => Promise<T>): Promise<T> {
    const now = Date.now();
    if (!this.last || now - this.last.at >= this.freshForMs) {
      const last = { at: now, value: look() };
      this.last = last;
      last.value.catch(() => {
        if (this.last === last) this.last = undefined;
      });
    }
    return this.last.value;
  }

  forget(): void {
    this.last = undefined;
  }
}

/**
 * Waits until every look taken before `since` (a `Date.now()` reading) is older than
 * `freshForMs`, so that whoever judges by such looks has looked again: for a change whose
 * word to the other instances was lost, to be answered only once it is in force everywhere.
 */
export async function outlive(since: number, freshForMs: number): Promise<void> {
  const left = since + freshForMs - Date.now();
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
}
