/**
 * @module The 2025 era: the handshake revisions 2024-11-05 … 2025-11-25, their method table and
 * their revision profiles.
 */
import { registryFor } from '../../methods/registry.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../../versions.js';
import type { Era } from '../era.js';
import { profile2025 } from './profiles.js';

/** The 2025 era (the handshake family of revisions). */
export const era2025: Era = Object.freeze({
  name: '2025',
  methods: registryFor('2025'),
  revisions: SUPPORTED_PROTOCOL_VERSIONS,
  profile: profile2025,
});
