// Agora v1.0 "Capability Manifest": what an agent declares so a directory can list it. The
// spec gives one example and no field rules; we require what a directory needs to list and
// reach an agent (id, name, at least one intent, pricing model, the signing key) and keep
// the rest typed-if-present and open to extension.
import { z } from 'zod';
import { decodeDidKey, encodeDidKey, isDidKey } from '../crypto/did-key';
import type { DidKey } from '../crypto/did-key';

/** "Pricing: Cost model (free/fixed/metered/subscription)" (Core Concepts, Capability). */
export const PRICING_MODELS = ['free', 'fixed', 'metered', 'subscription'] as const;

export const Intent = z.looseObject({
  /** The REQUEST `intent` this serves, e.g. `translation.en_zh`. */
  id: z.string().min(1).max(256),
  name: z.string().min(1).optional(),
  description: z.string().optional(),
  input_schema: z.record(z.string(), z.unknown()).optional(),
  output_schema: z.record(z.string(), z.unknown()).optional(),
});

export const Pricing = z
  .looseObject({
    model: z.enum(PRICING_MODELS),
    currency: z.string().min(1).optional(),
    amount: z.number().nonnegative().optional(),
    metered_unit: z.string().min(1).optional(),
    metered_rate: z.number().nonnegative().optional(),
  })
  .refine((p) => p.model !== 'metered' || (p.metered_unit !== undefined && p.metered_rate !== undefined), {
    message: 'metered pricing needs metered_unit and metered_rate',
  });

/**
 * `public_key` as the example prints it (`z6Mk…`, the multibase part of a did:key) or as a
 * whole `did:key:z6Mk…`; either way it must be an Ed25519 key.
 */
const PublicKey = z.string().refine((key) => isDidKey(key.startsWith('did:key:') ? key : `did:key:${key}`), {
  message: 'must be an Ed25519 did:key or its multibase part (z6Mk…)',
});

export const CapabilityManifest = z.looseObject({
  id: z.string().min(1).max(256),
  name: z.string().min(1),
  description: z.string().optional(),
  version: z.string().min(1).optional(),
  intents: z
    .array(Intent)
    .min(1)
    .refine((intents) => new Set(intents.map((intent) => intent.id)).size === intents.length, {
      message: 'intent ids must be unique',
    }),
  pricing: Pricing,
  privacy_policy: z.url({ protocol: /^https?$/ }).optional(),
  supported_languages: z.array(z.string().min(1)).optional(),
  auth: z.looseObject({
    methods: z
      .array(z.string().min(1))
      .refine((methods) => methods.includes('ed25519'), { message: 'Agora v1.0 needs "ed25519"' }),
    public_key: PublicKey,
  }),
});
export type CapabilityManifest = z.infer<typeof CapabilityManifest>;
export type Intent = z.infer<typeof Intent>;

/** The did:key the manifest's key stands for: the agent's identity in the directory. */
export function manifestDid(manifest: CapabilityManifest): DidKey {
  const key = manifest.auth.public_key;
  return encodeDidKey(decodeDidKey(key.startsWith('did:key:') ? key : `did:key:${key}`));
}
