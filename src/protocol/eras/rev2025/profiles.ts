/**
 * @module The revision profiles of the 2025 era (2024-11-05 … 2025-11-25): the feature table of
 * `protocol/versions.ts` and the projections of `projection.ts`, bound once per revision.
 */
import { featuresOf, SUPPORTED_PROTOCOL_VERSIONS, type ProtocolVersion } from '../../versions.js';
import type { RevisionProfile } from '../era.js';
import {
  callToolResultForRevision,
  implementationForRevision,
  serverCapabilitiesForRevision,
  toolForRevision,
} from './projection.js';

function profileOf(revision: ProtocolVersion): RevisionProfile {
  const features = featuresOf(revision);
  return Object.freeze({
    revision,
    features,
    tool: (tool) => toolForRevision(tool, features),
    callToolResult: (result, output) => callToolResultForRevision(result, features, output),
    implementation: (info) => implementationForRevision(info, features),
    serverCapabilities: (capabilities) => serverCapabilitiesForRevision(capabilities, features),
    // The 2025 revisions have no result envelope.
    complete: (result) => result,
  } satisfies RevisionProfile);
}

const PROFILES = new Map<unknown, RevisionProfile>(
  SUPPORTED_PROTOCOL_VERSIONS.map((revision) => [revision, profileOf(revision)]),
);

/** The profile of a 2025-era revision; undefined for anything else. */
export function profile2025(revision: unknown): RevisionProfile | undefined {
  return PROFILES.get(revision);
}
