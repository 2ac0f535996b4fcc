// The OAuth login probe names its revision in its own era folder (it may not import protocol/):
// this keeps that copy equal to the protocol's newest revision, so the two cannot drift apart.
import { describe, expect, it } from 'vitest';
import { PROBE_REVISION } from '../../src/oauthClient/eras/probeRevision.js';
import { LATEST_PROTOCOL_VERSION } from '../../src/protocol/versions.js';

describe('the OAuth probe revision', () => {
  it('is the newest revision toolwire speaks', () => {
    expect(PROBE_REVISION).toBe(LATEST_PROTOCOL_VERSION);
  });
});
