// An RFC 0002 party over HTTP, as any agent would write one: it reads the history from
// GET /oap/negotiation/{id}, rebuilds and re-verifies the state with the shared core
// (replayHistory), and signs its next document with its own did:key. Its reads are signed too
// (RFC 9421, keyid = its DID), as a negotiation that is not `public` answers only its parties.
// The demo agents, the integration tests and the bench all drive the server through it.
import { randomBytes } from 'node:crypto';
import type { DidKey } from '@shared/crypto/did-key';
import { CodedError, unwrap } from '@shared/errors';
import { signRequest } from '@shared/http-signature/request-signature';
import { signAgreement } from '@shared/negotiation/agreement';
import { agreementOnAcceptance } from '@shared/negotiation/apply-acceptance';
import { nextProposalSkeleton } from '@shared/negotiation/available-actions';
import type { ConfidentialityClass, RegulatedProfession } from '@shared/negotiation/confidentiality';
import {
  signNegotiationDocument,
  type Acceptance,
  type OpenDocument,
  type Proposal,
  type Rejection,
  type Withdrawal,
} from '@shared/negotiation/documents';
import { newId, newSaltSeed, type RandomSource } from '@shared/negotiation/ids';
import { encodeBase64url } from '@shared/crypto/base64url';
import type { NegotiationLimits } from '@shared/negotiation/manifest';
import type { Terms } from '@shared/negotiation/primitives';
import { replayHistory } from '@shared/negotiation/replay';
import { latestProposal, type NegotiationState } from '@shared/negotiation/state';
import type { AgentIdentity } from '../identity';

export type FetchLike = (input: string, init?: RequestInit) => Response | Promise<Response>;

export type PartyIdentity = AgentIdentity;

export interface OpenOptions {
  readonly category: string;
  readonly mine: ConfidentialityClass;
  readonly theirs: ConfidentialityClass;
  readonly regulated?: Partial<Record<DidKey, RegulatedProfession>>;
  readonly maxRounds?: number;
}

export class NegotiationParty {
  constructor(
    readonly identity: PartyIdentity,
    private readonly fetch: FetchLike,
    private readonly baseUrl: string,
    private readonly now: () => number,
    private readonly random: RandomSource,
  ) {}

  get did(): DidKey {
    return this.identity.did;
  }

  /** RFC 9421 headers for a GET of `url` (relative URLs are signed as app.request resolves them). */
  signedReadHeaders(url: string): Record<string, string> {
    const absolute = new URL(url, 'http://localhost').href;
    return signRequest(
      { method: 'GET', url: absolute, header: () => undefined },
      {
        keyid: this.did,
        secretKey: this.identity.secretKey,
        created: Math.floor(this.now() / 1000),
        // Not from `random`: the seeded stream stays the demo's ids alone, and a nonce must not repeat across runs.
        nonce: encodeBase64url(randomBytes(16)),
      },
    );
  }

  async #call<T>(path: string, body?: unknown): Promise<T> {
    const url = `${this.baseUrl}${path}`;
    const res = await this.fetch(
      url,
      body === undefined
        ? { headers: this.signedReadHeaders(url) }
        : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    );
    const answer = (await res.json()) as T & { code?: string; message?: string; details?: Record<string, unknown> };
    if (!res.ok)
      throw new CodedError(answer.code ?? 'HTTP_ERROR', answer.message ?? `HTTP ${res.status}`, answer.details);
    return answer;
  }

  /** The negotiation as the server holds it, replayed and verified here. */
  async state(id: string): Promise<NegotiationState> {
    const detail = await this.#call<{ history: unknown[]; limits: NegotiationLimits }>(`/oap/negotiation/${id}`);
    return unwrap(replayHistory(detail.history, detail.limits));
  }

  openDocument(counterparty: DidKey, options: OpenOptions): OpenDocument {
    const at = this.now();
    return signNegotiationDocument<OpenDocument>(
      {
        type: 'open',
        negotiation_id: newId('neg', at, this.random),
        parties: [this.did, counterparty],
        opened_by: this.did,
        category: options.category,
        ...(options.maxRounds === undefined ? {} : { max_rounds: options.maxRounds }),
        confidentiality: { [this.did]: options.mine, [counterparty]: options.theirs },
        ...(options.regulated === undefined
          ? {}
          : { regulated: options.regulated as Record<DidKey, RegulatedProfession> }),
        at: new Date(at).toISOString(),
      },
      this.identity.secretKey,
    );
  }

  async open(counterparty: DidKey, options: OpenOptions): Promise<string> {
    const doc = this.openDocument(counterparty, options);
    await this.#call('/oap/negotiation/open', doc);
    return doc.negotiation_id;
  }

  proposalDocument(state: NegotiationState, terms: Terms, validForMs: number): Proposal {
    const now = this.now();
    return signNegotiationDocument<Proposal>(
      {
        ...nextProposalSkeleton(state, this.did),
        proposal_id: newId('prp', now, this.random),
        terms,
        valid_until: new Date(now + validForMs).toISOString(),
      },
      this.identity.secretKey,
    );
  }

  async propose(id: string, terms: Terms, validForMs: number): Promise<Proposal> {
    const doc = this.proposalDocument(await this.state(id), terms, validForMs);
    await this.#call(`/oap/negotiation/${id}/propose`, doc);
    return doc;
  }

  /** Builds the agreement this acceptance produces, signs it, and signs the acceptance around it. */
  acceptanceDocument(state: NegotiationState): Acceptance {
    const latest = latestProposal(state);
    if (latest === null) throw new Error('nothing to accept');
    const at = new Date(this.now()).toISOString();
    const saltSeed = newSaltSeed(this.random);
    const agreement = agreementOnAcceptance(state, latest, at, saltSeed);
    return signNegotiationDocument<Acceptance>(
      {
        type: 'accept',
        negotiation_id: state.negotiation_id,
        proposal_id: latest.proposal_id,
        by: this.did,
        at,
        salt_seed: saltSeed,
        agreement_signature: signAgreement(agreement, this.identity.secretKey),
      },
      this.identity.secretKey,
    );
  }

  async accept(id: string): Promise<{ log_entry?: { index: number } }> {
    return this.#call(`/oap/negotiation/${id}/accept`, this.acceptanceDocument(await this.state(id)));
  }

  rejectionDocument(state: NegotiationState, reason?: string): Rejection {
    return signNegotiationDocument<Rejection>(
      {
        type: 'reject',
        negotiation_id: state.negotiation_id,
        proposal_id: latestProposal(state)?.proposal_id ?? 'prp_none',
        by: this.did,
        at: new Date(this.now()).toISOString(),
        ...(reason === undefined ? {} : { reason }),
      },
      this.identity.secretKey,
    );
  }

  async reject(id: string, reason?: string): Promise<void> {
    await this.#call(`/oap/negotiation/${id}/reject`, this.rejectionDocument(await this.state(id), reason));
  }

  withdrawalDocument(id: string, reason?: string): Withdrawal {
    return signNegotiationDocument<Withdrawal>(
      {
        type: 'withdraw',
        negotiation_id: id,
        by: this.did,
        at: new Date(this.now()).toISOString(),
        ...(reason === undefined ? {} : { reason }),
      },
      this.identity.secretKey,
    );
  }

  async withdraw(id: string, reason?: string): Promise<void> {
    await this.#call(`/oap/negotiation/${id}/withdraw`, this.withdrawalDocument(id, reason));
  }

  /** The proposer's co-signature over the agreement statement (decisions §13). */
  async cosign(id: string): Promise<void> {
    const state = await this.state(id);
    if (state.agreement === null) throw new Error('no agreement to co-sign');
    await this.#call(`/oap/negotiation/${id}/agreement/cosign`, {
      by: this.did,
      signature: signAgreement(state.agreement, this.identity.secretKey),
    });
  }
}

/** Bytes from a seeded PRNG, for ids and salt seeds that replay with the demo seed. */
export const seededBytes =
  (next: () => number): RandomSource =>
  (length) =>
    Uint8Array.from({ length }, () => Math.floor(next() * 256));
