// This Tool's RFC 0002 §3.6 manifest declaration, served at GET /oap/manifest. The limits the
// state machine enforces come from it (limitsFromManifest), so what is declared is what is enforced.
import { unwrap } from '@shared/errors';
import { limitsFromManifest, type ManifestDeclaration, type NegotiationLimits } from '@shared/negotiation/manifest';

export const TOOL_MANIFEST: ManifestDeclaration = {
  negotiation: {
    supported: true,
    categories: ['pricing', 'scheduling', 'service-level', 'data-access'],
    max_rounds: 8,
    default_validity_minutes: 60,
    binding_acceptance: true,
  },
};

export const toolLimits = (manifest: ManifestDeclaration = TOOL_MANIFEST): NegotiationLimits =>
  unwrap(limitsFromManifest(manifest));
