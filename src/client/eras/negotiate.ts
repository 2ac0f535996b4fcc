/**
 * @module Which era a client session is opened in: the one the client was configured for
 * (`protocolEra`: `legacy`, `modern`, or `auto`, which probes and is the default), looked up in
 * a table of openers; a value the types do not allow is the legacy handshake. The choice is made
 * here once per `connect()`; nothing behind it asks again.
 */
import type { ProtocolEra } from '../clientOptions.js';
import type { EraSession, Opening } from './eraSession.js';
import { openAuto } from './auto.js';
import { openLegacy } from './legacy.js';
import { openModern } from './modern.js';

type Opener = (opening: Opening) => Promise<EraSession>;

const OPENERS: ReadonlyMap<unknown, Opener> = new Map<ProtocolEra, Opener>([
  ['legacy', openLegacy],
  ['modern', openModern],
  ['auto', openAuto],
]);

/** Opens the session of `era` (default `auto`) over the opening's connection. */
export function openSession(era: ProtocolEra | undefined, opening: Opening): Promise<EraSession> {
  return (OPENERS.get(era ?? 'auto') ?? openLegacy)(opening);
}
