import { describe, expect, it } from 'vitest';
import type { UnsignedEnvelope } from '@shared/agora/envelope';
import { signEnvelope, verifyEnvelope } from '@shared/agora/sign-envelope';
import { agentA, client, draft } from '@shared/agora/test-support/fixtures';
import { signDocument, verifyDocument } from '@shared/crypto/signed-document';
import { createIdentityStore } from './identity-store';
import { operatorSigner, signDocumentAs, signEnvelopeAs, signerOf } from './operator-signer';
import { memoryKeyValue } from './test-support/memory-key-value';
import { importSigningKey } from './webcrypto-ed25519';

const signerFor = async (party: typeof client) =>
  signerOf({ did: party.did, privateKey: await importSigningKey(party.secretKey) });

describe('signing as the operator with the stored CryptoKey', () => {
  it('makes the same signed document as shared/crypto with the key bytes', async () => {
    const document = { type: 'proposal', terms: { price: 12, currency: 'EUR' }, note: 'déjà vu ✓' };
    const signed = await signDocumentAs(await signerFor(client), document, 'signature');
    expect(signed).toEqual(signDocument(document, 'signature', client.secretKey));
    expect(verifyDocument(signed, 'signature', client.did)).toEqual({ ok: true });
  });

  it('makes the same signed Agora envelope as signEnvelope, and it verifies', async () => {
    const unsigned = draft('REQUEST', { from: client }) as UnsignedEnvelope;
    const envelope = await signEnvelopeAs(await signerFor(client), unsigned);
    expect(envelope).toEqual(signEnvelope(unsigned, client.secretKey));
    expect(verifyEnvelope(envelope).ok).toBe(true);
  });

  it('refuses to sign an envelope whose sender is not the operator', async () => {
    const unsigned = draft('REQUEST', { from: client }) as UnsignedEnvelope;
    await expect(signEnvelopeAs(await signerFor(agentA), unsigned)).rejects.toMatchObject({
      details: { reason: 'signer_mismatch' },
    });
  });

  it('says NO_KEY without a stored key, or with another operator’s', async () => {
    const store = createIdentityStore(memoryKeyValue());
    await expect(operatorSigner(undefined, store)).rejects.toMatchObject({ code: 'NO_KEY' });
    await store.replace({ did: client.did, secretKey: client.secretKey }, 0);
    expect((await operatorSigner(client.did, store)).did).toBe(client.did);
    await expect(operatorSigner(agentA.did, store)).rejects.toMatchObject({ code: 'NO_KEY' });
  });
});
