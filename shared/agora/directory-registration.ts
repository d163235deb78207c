// Registering a capability manifest with a directory (docs/decisions-agora.md, "Directory").
// Agora v1.0 says agents "declare capabilities via a manifest" and not how one reaches a
// directory. We carry it in an ordinary signed envelope, a REQUEST whose intent is
// `directory.register`, so registration gets the same signature, ±5 min window and replay
// checks as every message; the manifest's own key must be the envelope's signer.
import { z } from 'zod';
import { ok } from '../errors';
import type { Result } from '../errors';
import { AgentEntry, Scope } from '../osnap/agent-entry';
import type { ToolDeclaration } from '../osnap/agent-entry';
import { CapabilityManifest, manifestDid } from './capability-manifest';
import type { Envelope } from './envelope';
import { DidKeyId } from './fields';
import { agoraFail } from './reject-reasons';
import type { AgoraError } from './reject-reasons';

export const DIRECTORY_REGISTER_INTENT = 'directory.register';

/** `payload.params` of a registration REQUEST. */
export const RegistrationParams = z.looseObject({
  manifest: CapabilityManifest,
  /** OSNAP §3.3 scope; public when absent. */
  scope: Scope.optional(),
  /** OSNAP `authorized_agents` for a private entry: the DIDs that may see it. */
  authorized_agents: z.array(DidKeyId).max(1000).optional(),
  /**
   * The agent's AOR `agentId`, when it also joins rooms: a claim. Its heartbeats show as presence
   * only when the console itself linked that agent id to this DID (decisions-agora.md §40).
   */
  aor_agent_id: z.string().min(1).max(256).optional(),
});
export type RegistrationParams = z.infer<typeof RegistrationParams>;

export interface Registration extends RegistrationParams {
  readonly did: string;
  readonly scope: Scope;
  /** The registering envelope's `ts` in epoch ms: a newer registration replaces an older one. */
  readonly registeredAt: number;
  readonly envelopeId: string;
}

/** True for envelopes a directory must read as registrations rather than relay as events. */
export const isRegistration = (envelope: Envelope): boolean =>
  envelope.type === 'REQUEST' && envelope.payload.intent === DIRECTORY_REGISTER_INTENT;

/** Reads a verified envelope as a registration; the signer must be the manifest's key. */
export function readRegistration(envelope: Envelope): Result<Registration, AgoraError> {
  if (!isRegistration(envelope)) {
    return agoraFail('manifest_invalid', `A registration is a REQUEST with intent "${DIRECTORY_REGISTER_INTENT}".`);
  }
  const params = RegistrationParams.safeParse((envelope.payload as { params?: unknown }).params);
  if (!params.success) {
    return agoraFail('manifest_invalid', 'payload.params must hold a valid capability manifest.', {
      issues: params.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message })),
    });
  }
  const did = manifestDid(params.data.manifest);
  if (did !== envelope.sender.id) {
    return agoraFail(
      'manifest_key_mismatch',
      'manifest.auth.public_key must be the key that signed the envelope (sender.id).',
      {
        manifestDid: did,
        senderId: envelope.sender.id,
      },
    );
  }
  return ok({
    ...params.data,
    did,
    scope: params.data.scope ?? 'public',
    registeredAt: Date.parse(envelope.ts),
    envelopeId: envelope.id,
  });
}

/**
 * The OSNAP §3.3 entry for a registration: agent_id is the DID, each intent is a task tool
 * (`request_format` its input schema, `SLA` when the intent declares one). The manifest itself
 * rides along (`manifest`, our extension) so a console can show pricing and languages.
 */
export function directoryEntry(
  registration: Pick<Registration, 'did' | 'scope' | 'authorized_agents' | 'manifest'>,
  endpoint?: string,
): AgentEntry {
  const { manifest } = registration;
  const tools: Record<string, ToolDeclaration> = {};
  for (const intent of manifest.intents) {
    const sla = (intent as { SLA?: unknown }).SLA;
    tools[intent.id] = {
      description: intent.description ?? intent.name ?? intent.id,
      kind: 'task',
      ...(intent.input_schema === undefined ? {} : { request_format: intent.input_schema }),
      ...(typeof sla === 'string' && sla.length > 0 ? { SLA: sla } : {}),
    };
  }
  return AgentEntry.parse({
    agent_id: registration.did,
    agent_name: manifest.name,
    ...(manifest.description === undefined ? {} : { agent_description: manifest.description }),
    ...(endpoint === undefined ? {} : { agent_endpoint: endpoint }),
    tools,
    scope: registration.scope,
    ...(registration.scope === 'private' ? { authorized_agents: registration.authorized_agents ?? [] } : {}),
    manifest,
  });
}
