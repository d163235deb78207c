import { describe, expect, it } from 'vitest';
import { CapabilityManifest, manifestDid } from './capability-manifest';
import { agentA } from './test-support/fixtures';

const multibase = agentA.did.slice('did:key:'.length);

// The spec's "Capability Manifest" example, with a real key and the elided schemas filled in.
const example = {
  id: 'cap_translation_service',
  name: 'Translation Service',
  description: 'High-quality translation using LLMs',
  version: '1.0.0',
  intents: [
    {
      id: 'translation.en_zh',
      name: 'English to Chinese',
      input_schema: { type: 'object' },
      output_schema: { type: 'object' },
    },
  ],
  pricing: { model: 'metered', currency: 'USD', metered_unit: 'character', metered_rate: 0.00001 },
  privacy_policy: 'https://example.com/privacy',
  supported_languages: ['en', 'zh', 'ja', 'ko'],
  auth: { methods: ['ed25519'], public_key: multibase },
};

describe('CapabilityManifest', () => {
  it('accepts the spec example unchanged, unknown fields kept', () => {
    expect(CapabilityManifest.parse(example)).toEqual(example);
    const extended = { ...example, x_region: 'eu' };
    expect(CapabilityManifest.parse(extended)).toEqual(extended);
  });

  it('takes the key as multibase (as printed) or as a whole did:key, and names the agent by its did:key', () => {
    expect(manifestDid(CapabilityManifest.parse(example))).toBe(agentA.did);
    const asDid = CapabilityManifest.parse({ ...example, auth: { methods: ['ed25519'], public_key: agentA.did } });
    expect(manifestDid(asDid)).toBe(agentA.did);
  });

  it('requires an id, a name, at least one intent with unique ids, a pricing model and an Ed25519 key', () => {
    const bad: Record<string, unknown>[] = [
      { ...example, id: '' },
      { ...example, name: undefined },
      { ...example, intents: [] },
      { ...example, intents: [{ id: 'a' }, { id: 'a' }] },
      { ...example, pricing: { model: 'barter' } },
      { ...example, pricing: { model: 'metered', currency: 'USD' } },
      { ...example, auth: { methods: ['rsa'], public_key: multibase } },
      { ...example, auth: { methods: ['ed25519'], public_key: 'z6MkhaXg...' } },
      { ...example, auth: { methods: ['ed25519'], public_key: 'did:web:example.com' } },
      { ...example, privacy_policy: 'ftp://example.com/privacy' },
    ];
    for (const manifest of bad)
      expect(CapabilityManifest.safeParse(manifest).success, JSON.stringify(manifest)).toBe(false);
    expect(CapabilityManifest.safeParse({ ...example, pricing: { model: 'free' } }).success).toBe(true);
  });
});
