// Whether people are waiting on this process now: the signal a background writer on the embedded
// database reads before it rests (pacer.ts). Resting after every transaction whatever happens made
// the first usage run at 10,000 terminals take 465 s instead of 83 s with nobody there to serve;
// resting only while requests are in flight, or have just been, costs nothing when idle and keeps
// the thread for the pages while someone uses the portal.
//
// The app marks each request's start and end (app.ts hooks). A request counts until its response
// is sent or the client goes away, and for `lingerMs` after: a person clicking through pages
// sends the next request a few milliseconds after the last answer, and a writer that starts a
// transaction in that gap makes the next page wait behind it.

export interface Demand {
  begin(request: object): void;
  /** Safe to call more than once for the same request (its response and its abort). */
  end(request: object): void;
  /** A request is in flight, or one ended less than `lingerMs` ago. */
  waiting(): boolean;
}

/** How long after the last answer a writer still behaves as if a request were there. */
export const DEMAND_LINGER_MS = 250;

export function createDemand(options: { monotonic?: () => number; lingerMs?: number } = {}): Demand {
  const monotonic = options.monotonic ?? (() => performance.now());
  const lingerMs = options.lingerMs ?? DEMAND_LINGER_MS;
  const inFlight = new WeakSet<object>();
  let count = 0;
  let lastEnded = Number.NEGATIVE_INFINITY;
  return {
    begin(request) {
      if (inFlight.has(request)) return;
      inFlight.add(request);
      count += 1;
    },
    end(request) {
      if (!inFlight.delete(request)) return;
      count -= 1;
      lastEnded = monotonic();
    },
    waiting() {
      return count > 0 || monotonic() - lastEnded < lingerMs;
    },
  };
}
