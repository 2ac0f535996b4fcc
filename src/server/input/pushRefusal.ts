/**
 * @module What a 2025 client can be asked by push: the capabilities it declared at `initialize`,
 * cut to what the negotiated revision has (sampling with tools and URL-mode elicitation only
 * exist from 2025-11-25 on). The messages are those `ctx.sample`, `ctx.elicit` and
 * `ctx.listRoots` have always thrown.
 */
import { LocalError } from '../../jsonrpc/errors.js';
import type { RevisionProfile } from '../../protocol/eras/era.js';
import type {
  ClientCapabilities,
  CreateMessageParams,
  ElicitParams,
} from '../../protocol/types.js';
import type { InputRequest } from './inputChannel.js';

/** Why the client cannot be asked `request` in `profile`'s revision, or `undefined`. */
export function pushRefusal(
  request: InputRequest,
  capabilities: ClientCapabilities,
  profile: RevisionProfile,
): LocalError | undefined {
  switch (request.kind) {
    case 'sampling':
      return samplingRefusal(request.params, capabilities, profile);
    case 'elicitation':
      return elicitationRefusal(request.params, capabilities, profile);
    case 'roots':
      return capabilities.roots ? undefined : missing('The client does not support roots');
  }
}

function samplingRefusal(
  params: CreateMessageParams,
  capabilities: ClientCapabilities,
  profile: RevisionProfile,
): LocalError | undefined {
  const sampling = capabilities.sampling;
  if (!sampling) return missing('The client does not support sampling');
  const wantsTools = params.tools !== undefined || params.toolChoice !== undefined;
  if (wantsTools && (!profile.features.samplingTools || !sampling.tools))
    return missing('The client does not support tool use in sampling');
  return undefined;
}

function elicitationRefusal(
  params: ElicitParams,
  capabilities: ClientCapabilities,
  profile: RevisionProfile,
): LocalError | undefined {
  const elicitation = capabilities.elicitation;
  const features = profile.features;
  if (!elicitation || !features.elicitation)
    return missing('The client does not support elicitation');
  if (params.mode === 'url') {
    return elicitation.url && features.elicitationModes
      ? undefined
      : missing('The client does not support URL-mode elicitation');
  }
  // An empty elicitation capability means form mode (2025-11-25 back-compat rule).
  if (elicitation.url && !elicitation.form)
    return missing('The client does not support form-mode elicitation');
  return undefined;
}

function missing(message: string): LocalError {
  return new LocalError('capability-missing', message);
}
