// Background writes cut into transactions of about the same duration, whatever the database and
// the fleet. The embedded database runs one transaction at a time, so a page read that arrives
// while a background transaction runs waits for all of it: at 10,000 terminals a usage batch of 250
// lines held every page for ~200 ms, and a refresh chunk of 500 lines for ~500 ms. A fixed number
// of items per transaction cannot hold to a time (an item costs ~20 times more there than on
// PostgreSQL), so the size follows the pace of the last transaction.

/** What one paced transaction should take: what a page read waits behind it, at most. */
export const PACED_TRANSACTION_MS = 20;

export interface PaceBounds {
  /** Items in the first transaction, before any pace is known. */
  first: number;
  min: number;
  max: number;
}

/** The next transaction's items: the last one's pace scaled to the target, at most doubling, within bounds. */
export function nextPacedSize(bounds: PaceBounds, items: number, elapsedMs: number): number {
  const paced = elapsedMs > 0 ? Math.floor((items * PACED_TRANSACTION_MS) / elapsedMs) : Number.POSITIVE_INFINITY;
  return Math.max(bounds.min, Math.min(bounds.max, items * 2, paced));
}

export interface Pacer {
  /** Items the next transaction should take. */
  readonly size: number;
  /**
   * Runs `work` (one transaction of at most `size` items), which answers the items it did, and
   * learns its pace from a full one (a short tail says little). Answers the items.
   */
  timed(work: (size: number) => Promise<number>): Promise<number>;
}

/** `monotonic`: milliseconds from any fixed point (tests script it). */
export function createPacer(bounds: PaceBounds, monotonic: () => number = () => performance.now()): Pacer {
  let size = bounds.first;
  return {
    get size() {
      return size;
    },
    async timed(work) {
      const asked = size;
      const started = monotonic();
      const items = await work(asked);
      if (items >= asked) size = nextPacedSize(bounds, asked, monotonic() - started);
      return items;
    },
  };
}
