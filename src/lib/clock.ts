// The one clock: milliseconds since the epoch. `buildApp`, the server and the command line each take one and hand
// it to every service that dates what it writes or decides by the date; tests hand a fake one.
export type Clock = () => number;

/** The wall clock, for production. Durations and deadlines use `performance.now()` instead, which never jumps. */
export const systemClock: Clock = () => Date.now();
