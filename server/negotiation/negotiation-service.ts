// The RFC 0002 service over the store: every event goes through the shared state machine with
// the server's node:crypto verifier, and is saved by compare-and-set on the history length; a
// save that loses the race is decided again on the fresh state, so of many concurrent
// acceptances exactly one is stored and the others get NEGOTIATION_TERMINAL (§5 "Race
// Conditions", docs/decisions-negotiation.md §19, §22). A refusal writes nothing.
import type { DidSignatureCheck } from '@shared/crypto/signed-document';
import { fail, ok, type Result } from '@shared/errors';
import { cosignAgreement } from '@shared/negotiation/cosign';
import { NegotiationErrorCode as Code } from '@shared/negotiation/error-codes';
import { tick } from '@shared/negotiation/expire';
import type { ManifestDeclaration, NegotiationLimits } from '@shared/negotiation/manifest';
import { openNegotiation } from '@shared/negotiation/open-negotiation';
import { applyRedactionRequest } from '@shared/negotiation/redaction-request';
import { isTerminal, latestProposal, type NegotiationState } from '@shared/negotiation/state';
import { transition } from '@shared/negotiation/transition';
import { appendEntry, updateEntrySignatures, type LogEntry } from '@shared/negotiation/transparency-log';
import type { Clock } from '../clock';
import type { DidVerifier } from '../crypto/node-verifier';
import type { NegotiationRecord, NegotiationSave, NegotiationStore } from '../store/negotiation-store';
import { TOOL_MANIFEST, toolLimits } from './tool-manifest';
import { moduleLogger } from '../logging/logger';

const log = moduleLogger('negotiation');

export type OpenAdmission = (
  openerDid: string,
) => { readonly ok: true } | { readonly ok: false; readonly retryAfterSeconds: number };

export type PartyEvent = 'propose' | 'accept' | 'reject' | 'withdraw';

export interface Applied {
  readonly record: NegotiationRecord;
  /** The log entry this step appended (acceptance) or updated (co-signature). */
  readonly entry?: LogEntry;
}

/** How often a save that lost the race is decided again before giving up with CONFLICT. */
const MAX_ATTEMPTS = 8;

/** When the sweeper should tick a negotiation: the live proposal's valid_until, none otherwise. */
export function deadlineOf(state: NegotiationState): number | null {
  if (isTerminal(state.status)) return null;
  const latest = latestProposal(state);
  return latest === null ? null : Date.parse(latest.valid_until);
}

const notFound = (id: string) => fail('NOT_FOUND', `No negotiation ${id.slice(0, 80)}.`);

export interface NegotiationServiceOptions {
  readonly store: NegotiationStore;
  readonly clock: Clock;
  readonly verifier: DidVerifier;
  readonly manifest?: ManifestDeclaration;
  readonly clockSkewMs?: number;
}

export class NegotiationService {
  readonly store: NegotiationStore;
  readonly manifest: ManifestDeclaration;
  readonly limits: NegotiationLimits;
  readonly #clock: Clock;
  /** The server's Ed25519 check over did:key signatures (documents and signed reads alike). */
  readonly check: DidSignatureCheck;
  readonly #saved = new Set<(record: NegotiationRecord) => void>();

  constructor(options: NegotiationServiceOptions) {
    this.store = options.store;
    this.#clock = options.clock;
    this.manifest = options.manifest ?? TOOL_MANIFEST;
    const limits = toolLimits(this.manifest);
    this.limits = options.clockSkewMs === undefined ? limits : { ...limits, clockSkewMs: options.clockSkewMs };
    const verifier = options.verifier;
    this.check = (did, message, signature) => verifier.verify(did, message, signature);
  }

  now(): number {
    return this.#clock.now();
  }

  /** Hears every negotiation this service stores (opened, moved, co-signed, expired); returns the unsubscribe. */
  onSaved(listener: (record: NegotiationRecord) => void): () => void {
    this.#saved.add(listener);
    return () => this.#saved.delete(listener);
  }

  #tellSaved(record: NegotiationRecord): void {
    for (const listener of [...this.#saved]) {
      try {
        listener(record);
      } catch (error) {
        log.error({ err: error }, 'a negotiation listener failed');
      }
    }
  }

  /**
   * POST /oap/negotiation/open. `admit` is asked once the open document verifies, with the
   * opener's DID (a per-DID rate limit); its refusal stores nothing.
   */
  async open(body: unknown, admit?: OpenAdmission): Promise<Result<NegotiationRecord>> {
    const now = this.#clock.now();
    const opened = openNegotiation(body, { now, limits: this.limits, verify: this.check });
    if (!opened.ok) return opened;
    const state = opened.value;
    const admitted = admit?.(state.opened_by);
    if (admitted && !admitted.ok) {
      return fail(
        'RATE_LIMITED',
        `Too many negotiations opened by this DID; try again in ${admitted.retryAfterSeconds} s.`,
        { retryAfterSeconds: admitted.retryAfterSeconds },
      );
    }
    const created = await this.store.create({
      id: state.negotiation_id,
      state,
      limits: this.limits,
      deadlineAt: null,
      createdAt: now,
    });
    if (!created)
      return fail(Code.NEGOTIATION_ID_REUSED, `Negotiation ${state.negotiation_id} already exists; mint a new id.`);
    const record = await this.store.get(state.negotiation_id);
    if (record) this.#tellSaved(record);
    return record ? ok(record) : notFound(state.negotiation_id);
  }

  /** POST /oap/negotiation/{id}/{propose|accept|reject|withdraw}. */
  async apply(id: string, type: PartyEvent, body: unknown): Promise<Result<Applied>> {
    return this.#decide(id, (record, now) => {
      const ctx = { now, limits: record.limits, verify: this.check };
      const next = transition(record.state, { type, document: body }, ctx);
      if (!next.ok) return next;
      const agreement = next.value.agreement;
      const save: NegotiationSave = { state: next.value, deadlineAt: deadlineOf(next.value), now };
      if (next.value.status !== 'ACCEPTED' || agreement === null) return ok(save);
      return ok({
        ...save,
        // A clock behind the head (another instance, a step back) must not refuse a valid acceptance.
        appendLog: (head) =>
          appendEntry(head, {
            agreement,
            now: head === null ? now : Math.max(now, Date.parse(head.timestamp)),
            verify: this.check,
          }),
      });
    });
  }

  /** POST /oap/negotiation/{id}/agreement/cosign: the proposer's signature (decisions §13). */
  async cosign(id: string, body: unknown): Promise<Result<Applied>> {
    return this.#decide(id, (record, now) => {
      const next = cosignAgreement(record.state, body, now, this.check);
      if (!next.ok) return next;
      const agreement = next.value.agreement;
      if (agreement === null || record.logIndex === null)
        return fail(Code.INVALID_TRANSITION, 'The agreement is not logged yet.');
      return ok({
        state: next.value,
        deadlineAt: null,
        now,
        updateLogView: {
          index: record.logIndex,
          decide: (entry) => updateEntrySignatures(entry, agreement, this.check),
        },
      });
    });
  }

  /** POST /oap/transparency-log/{index}/redact. */
  async redact(index: number, body: unknown): Promise<Result<LogEntry>> {
    const now = this.#clock.now();
    return this.store.updateLogView(index, (entry) =>
      applyRedactionRequest(entry, body, { now, clockSkewMs: this.limits.clockSkewMs, verify: this.check }),
    );
  }

  /**
   * Loads, ticks (a lapsed negotiation is saved EXPIRED first), decides and saves by
   * compare-and-set; on a lost race, decides again on what won.
   */
  async #decide(
    id: string,
    decide: (record: NegotiationRecord, now: number) => Result<NegotiationSave>,
  ): Promise<Result<Applied>> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const record = await this.store.get(id);
      if (!record) return notFound(id);
      const now = this.#clock.now();
      const ticked = tick(record.state, now);
      if (ticked !== record.state) {
        // Due: the expiry happens now, whoever asked (decisions §10); the event is then refused
        // by the state it was aimed at, so the caller learns *why* (PROPOSAL_EXPIRED).
        const saved = await this.store.save(id, record.version, { state: ticked, deadlineAt: null, now });
        if (saved.outcome === 'conflict') continue;
        if (saved.outcome === 'stored') this.#tellSaved(saved.record);
        const refused = decide(record, now);
        return refused.ok ? fail(Code.PROPOSAL_EXPIRED, 'The most recent proposal has expired.') : refused;
      }
      const decided = decide(record, now);
      if (!decided.ok) return decided;
      const saved = await this.store.save(id, record.version, decided.value);
      if (saved.outcome === 'conflict') continue;
      if (saved.outcome === 'refused') return { ok: false, error: saved.error };
      this.#tellSaved(saved.record);
      return ok(saved.entry ? { record: saved.record, entry: saved.entry } : { record: saved.record });
    }
    return fail('CONFLICT', 'The negotiation kept changing while this request was decided; send it again.');
  }

  /** Moves every lapsed negotiation to EXPIRED; returns how many this call ended. */
  async expireDue(batch = 500): Promise<number> {
    const now = this.#clock.now();
    let ended = 0;
    for (const record of await this.store.listDue(now, batch)) {
      const next = tick(record.state, now);
      if (next === record.state) continue;
      const saved = await this.store.save(record.id, record.version, { state: next, deadlineAt: null, now });
      if (saved.outcome === 'stored') {
        ended++;
        this.#tellSaved(saved.record);
      }
    }
    return ended;
  }
}
