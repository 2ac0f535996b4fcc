/**
 * @module Which transports are taken: a transport carries one connection, so a second server or
 * client connecting to it (or the same one twice) would steal its callbacks and answer half of
 * its messages. Connecting claims the transport for good; a second claim throws.
 */
import { LocalError } from './errors.js';
import type { Transport } from './transport.js';

/** Weak, so a transport that is gone takes its mark with it. */
const taken = new WeakSet<Transport>();

/**
 * Marks `transport` as carrying a connection; throws a `transport` {@link LocalError} when an
 * earlier connect (of any server or client) took it. `who` names the caller in the message.
 */
export function claimTransport(transport: Transport, who: string): void {
  if (taken.has(transport))
    throw new LocalError(
      'transport',
      `${who}: this transport already carries a connection (each server or client needs its own transport object)`,
    );
  taken.add(transport);
}

/**
 * The error of a transport's second `start()`: the connection starts its transport, so a
 * transport started by hand (or by an earlier connection) cannot carry a new one.
 */
export function startedTwice(transport: string): LocalError {
  return new LocalError(
    'transport',
    `${transport}.start() was called twice: a transport is started once, by the connect() that uses it`,
  );
}
