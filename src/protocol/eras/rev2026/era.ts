/**
 * @module The 2026 era: the stateless revisions (2026-07-28), their method table (no handshake,
 * `server/discover`, `subscriptions/listen`) and their profile.
 */
import { registryFor } from '../../methods/registry.js';
import { MODERN_PROTOCOL_VERSIONS } from '../../versions.js';
import type { Era } from '../era.js';
import { profile2026 } from './profile.js';

/** The 2026 era (stateless, self-describing requests). */
export const era2026: Era = Object.freeze({
  name: '2026',
  methods: registryFor('2026'),
  revisions: MODERN_PROTOCOL_VERSIONS,
  profile: profile2026,
});
