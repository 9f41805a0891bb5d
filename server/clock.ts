/** The time source services use; buildApp takes one so tests can move time. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

/** How a time that may be missing leaves the server: ISO 8601, or null. */
export const isoOrNull = (d: Date | null): string | null => (d ? d.toISOString() : null);
