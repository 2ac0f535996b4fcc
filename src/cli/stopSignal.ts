/** @module How a served process learns it should stop: SIGINT (Ctrl-C) or SIGTERM, once. */

/** Calls `stop` on the first SIGINT or SIGTERM. */
export function onSignal(stop: () => void): void {
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
