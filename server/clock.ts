/** The time source services use; buildApp takes one so tests can move time. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

/**
 * A clock that can be moved forward: the running portal's, so that the simulator's controls
 * (SIM_CONTROLS=on) can let a demo or a browser journey see what days bring (a statement falling
 * overdue, dunning blocking a customer) without waiting for them. Without a move it is the
 * system clock. One process's: in a cluster each worker keeps its own.
 */
export interface ShiftableClock {
  now: Clock;
  /** Moves the clock `ms` forward; answers the new time. */
  advance(ms: number): Date;
}

export function createShiftableClock(base: Clock = systemClock): ShiftableClock {
  let offsetMs = 0;
  const now = () => new Date(base().getTime() + offsetMs);
  return {
    now,
    advance(ms) {
      offsetMs += ms;
      return now();
    },
  };
}

/** How a time that may be missing leaves the server: ISO 8601, or null. */
export const isoOrNull = (d: Date | null): string | null => (d ? d.toISOString() : null);
