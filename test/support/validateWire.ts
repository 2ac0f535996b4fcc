// Vitest setup: after every test, each connection the harness made has all its traffic checked
// against the strict official schema of the revision it negotiated.
import { afterEach, expect } from 'vitest';
import { takeConnections } from './harness.js';

afterEach(() => {
  for (const connection of takeConnections()) {
    expect(
      connection.problems(),
      'every message must be valid for the negotiated revision',
    ).toEqual([]);
  }
});
