/**
 * @module Which era each server spoke, remembered per process (stdio command line) or origin
 * (HTTP) by `auto` negotiation (basic/versioning §Backward compatibility: cache the era), so a
 * client reconnecting to a 2025-era server does not probe it again. Bounded: the oldest entry
 * goes when it is full.
 */

/** The two outcomes of a probe. */
export type SpokenEra = 'legacy' | 'modern';

const LIMIT = 1000;
const remembered = new Map<string, SpokenEra>();

/** The era `key` spoke last time, if this process remembers it. */
export function rememberedEra(key: string | undefined): SpokenEra | undefined {
  return key === undefined ? undefined : remembered.get(key);
}

/** Remembers the era `key` speaks. */
export function rememberEra(key: string | undefined, era: SpokenEra): void {
  if (key === undefined) return;
  remembered.delete(key);
  if (remembered.size >= LIMIT) {
    const oldest = remembered.keys().next();
    if (!oldest.done) remembered.delete(oldest.value);
  }
  remembered.set(key, era);
}

/** Forgets every remembered era (tests; a host that knows servers were upgraded). */
export function forgetEras(): void {
  remembered.clear();
}
