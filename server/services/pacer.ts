// Background writes cut into transactions of about the same duration, whatever the database and
// the fleet. The embedded database runs one transaction at a time, so a page read that arrives
// while a background transaction runs waits for all of it: at 10,000 terminals a usage batch of 250
// lines held every page for ~200 ms, and a refresh chunk of 500 lines for ~500 ms. A fixed number
// of items per transaction cannot hold to a time (an item costs ~20 times more there than on
// PostgreSQL), so the size follows the pace of the last transaction.
//
// Short transactions are not enough there: the database runs on the server's one thread, and a
// sync writing flat out kept that thread 96 % busy (a 15 s profile at 10,000 terminals), every
// page waiting its turn. So on the embedded database a paced writer also rests after each
// transaction, as long as the transaction took (`restRatio` 1): background writes take at most
// about half of the thread, and the requests the rest. It rests only while someone waits
// (`wanted`, from demand.ts): with nobody there the rests only made the run longer.

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
   * learns its pace from a full one (a short tail says little), then rests (restRatio) unless
   * `rest` is false: a request doing the work itself should not wait on its own rests. Answers the items.
   */
  timed(work: (size: number) => Promise<number>, options?: { rest?: boolean }): Promise<number>;
}

export interface PacerOptions {
  /** Milliseconds from any fixed point (tests script it). */
  monotonic?: () => number;
  /** After each transaction, rest this many times as long as it took (0: none). */
  restRatio?: number;
  /** How to rest (tests script it). */
  sleep?: (ms: number) => Promise<void>;
  /** Whether anyone is waiting for the thread now: rests happen only then (default: always). */
  wanted?: () => boolean;
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createPacer(bounds: PaceBounds, options: PacerOptions = {}): Pacer {
  const monotonic = options.monotonic ?? (() => performance.now());
  const restRatio = options.restRatio ?? 0;
  const sleep = options.sleep ?? sleepFor;
  const wanted = options.wanted ?? (() => true);
  let size = bounds.first;
  return {
    get size() {
      return size;
    },
    async timed(work, { rest = true } = {}) {
      const asked = size;
      const started = monotonic();
      const items = await work(asked);
      const elapsed = monotonic() - started;
      if (items >= asked) size = nextPacedSize(bounds, asked, elapsed);
      if (rest && restRatio > 0 && items > 0 && wanted()) await sleep(elapsed * restRatio);
      return items;
    },
  };
}

/**
 * Writes `items` in consecutive slices, one transaction each (`write`), sized by the pacer; `from`
 * is the slice's first index. Nothing is written for no items.
 */
export async function inPacedSlices<T>(pacer: Pacer, items: readonly T[], write: (part: T[], from: number) => Promise<void>): Promise<void> {
  let done = 0;
  while (done < items.length) {
    const from = done;
    done += await pacer.timed(async (size) => {
      const part = items.slice(from, from + size);
      await write(part, from);
      return part.length;
    });
  }
}
