// External relays and negotiation services: the registry the settings screen edits,
// each bridged relay feed's persisted cursor, and the envelopes bridged from them. Kept apart
// from store.ts so each engine implements it on its own (SQLite: sqlite-service-registry-store.ts).
// Every method that changes two things (a page of envelopes and the cursor after it) does it in
// one transaction, so a crash or a restart never loses an envelope nor stores one twice.

export type ServiceKind = 'relay' | 'negotiation';
/** Where an entry comes from: EXTERNAL_SERVICES (env) or the settings screen (console). */
export type ServiceOrigin = 'env' | 'console';

export interface ExternalService {
  readonly id: string;
  readonly name: string;
  /** Absolute http(s) URL without a trailing slash; paths (/events, /oap/…) are appended. */
  readonly baseUrl: string;
  readonly kind: ServiceKind;
  readonly readOnly: boolean;
  readonly origin: ServiceOrigin;
  readonly createdAt: number;
}

export interface NewBridgedEnvelope {
  /** The envelope's own id, or `digest:<sha256>` when it has none worth the name. */
  readonly envelopeId: string;
  readonly threadId: string | null;
  /** The envelope as fetched: its JCS form when it parsed as an envelope, else the raw JSON text. */
  readonly json: string;
  /** SHA-256 of the JCS form (the relay's replay digest); null when unparseable. */
  readonly digest: string | null;
  /** True only when the envelope passed every check the built-in relay runs. */
  readonly trusted: boolean;
  /** Why not trusted (the Agora reason, e.g. signature_invalid); null when trusted. */
  readonly reason: string | null;
  readonly receivedAt: number;
}

export interface BridgedEnvelope extends NewBridgedEnvelope {
  readonly serviceId: string;
  /** Local arrival order across every service. */
  readonly seq: number;
}

export interface BridgedPage {
  readonly serviceId: string;
  /** Which long-poll of the service this page came from (e.g. `recipient:did:key:…`). */
  readonly feed: string;
  readonly envelopes: readonly NewBridgedEnvelope[];
  /** Where the next poll starts (`cur_<n>`, or an ISO timestamp for relays without cursors). */
  readonly cursor: string;
  readonly at: number;
}

export interface ServiceRegistryStore {
  listServices(): Promise<ExternalService[]>;
  getService(id: string): Promise<ExternalService | undefined>;
  /** Inserts, or replaces the entry with the same id (env entries are re-read at each start). */
  putService(service: ExternalService): Promise<ExternalService>;
  /** Removes the entry, its cursors and its bridged envelopes; false when unknown. */
  removeService(id: string): Promise<boolean>;

  getCursor(serviceId: string, feed: string): Promise<string | undefined>;
  /**
   * Stores a page and moves the feed's cursor, in one transaction. An envelope already stored
   * for the service (same id) is skipped. Returns how many were new.
   */
  appendBridgedPage(page: BridgedPage): Promise<{ readonly stored: number }>;
  /** The stored digest of a bridged envelope (the bridge's replay memory), per service. */
  findBridgedDigest(serviceId: string, envelopeId: string): Promise<string | null | undefined>;
  /** In local arrival order; `threadId` narrows to one thread. */
  listBridged(filter: {
    readonly serviceId?: string;
    readonly threadId?: string;
    readonly limit: number;
  }): Promise<BridgedEnvelope[]>;

  /** DIDs the console watches besides its operators' (their envelopes are bridged too). */
  listWatched(): Promise<string[]>;
  addWatched(did: string, at: number): Promise<void>;
  removeWatched(did: string): Promise<boolean>;

  /** Negotiations opened or seen through a negotiation service's proxy. */
  rememberNegotiation(serviceId: string, negotiationId: string, at: number): Promise<void>;
  listNegotiations(serviceId?: string): Promise<{ serviceId: string; negotiationId: string; seenAt: number }[]>;
}
