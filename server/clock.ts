/** The time source services use; buildApp takes one so tests can move time. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
