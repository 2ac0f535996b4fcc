/**
 * @module The revision the login probe announces in its `initialize`. The probe only wants the
 * server's 401 challenge, which no revision changes, so it names the newest 2025-era revision;
 * kept here, in the OAuth client's era folder, because the OAuth client may not import
 * `protocol/` (eslint.config.js) and era knowledge lives only in eras/ and fronts/ folders.
 * When the 2026 era lands, the probe may send its request instead: that choice is made here.
 */

/** `protocolVersion` of the probe's `initialize` (protocol/versions.ts's newest 2025 revision). */
export const PROBE_REVISION = '2025-11-25';
