// A thread's envelopes as timeline entries: who sent what, when, and the fields of each type
// that a person reads (REQUEST → OFFERs → ACCEPT → RESULT, or ERROR). Read from the envelope
// as received, whatever its verdict: the view shows the verdict beside it, and all of it is
// rendered as text.
import { absolute } from '@web/lib/time-words';
import { Envelope } from '@shared/agora/envelope';

export interface Fact {
  readonly label: string;
  readonly value: string;
  /** Shown in a monospace block (JSON). */
  readonly code?: boolean;
}

export interface TimelineEntry {
  readonly key: string;
  readonly seq: number;
  readonly receivedAt: number;
  /** The envelope's `type`, or `?` when it has none. */
  readonly type: string;
  readonly id: string | null;
  readonly senderId: string | null;
  readonly senderName: string | null;
  readonly ts: string | null;
  /** The envelope when it parses as Agora 1.0, for actions on it (ACCEPT needs the OFFER). */
  readonly envelope: Envelope | null;
  readonly facts: readonly Fact[];
  /** The envelope exactly as the relay stored it, pretty-printed. */
  readonly rawJson: string;
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
/** How an envelope is shown as text, and the key its verdict is kept under (verdicts-query.ts). */
export const envelopeText = (value: unknown): string => JSON.stringify(value, null, 2) ?? String(value);
const json = envelopeText;
/** An RFC 3339 time in the one format (decisions-web.md §36); anything else as it came. */
const when = (value: unknown): unknown =>
  typeof value === 'string' && Number.isFinite(Date.parse(value)) ? absolute(Date.parse(value)) : value;

function factsOf(type: string, payload: Record<string, unknown>): Fact[] {
  const facts: Fact[] = [];
  const add = (label: string, value: unknown, asCode = false) => {
    if (value === undefined || value === null || value === '') return;
    facts.push(
      typeof value === 'string' && !asCode
        ? { label, value }
        : { label, value: typeof value === 'string' ? value : json(value), code: true },
    );
  };
  switch (type) {
    case 'REQUEST': {
      add('Intent', payload.intent);
      add('Title', payload.title);
      add('Description', payload.description);
      add('Params', payload.params, true);
      const constraints = payload.constraints as { max_cost_usd?: unknown; max_latency_ms?: unknown } | undefined;
      if (typeof constraints?.max_cost_usd === 'number') add('At most', `${constraints.max_cost_usd} USD`);
      if (typeof constraints?.max_latency_ms === 'number') add('Within', `${constraints.max_latency_ms} ms`);
      break;
    }
    case 'OFFER': {
      add('Plan', payload.plan);
      const price = payload.price as { amount?: unknown; currency?: unknown } | undefined;
      if (price && typeof price.amount === 'number')
        add('Price', `${price.amount} ${str(price.currency) ?? ''}`.trim());
      if (typeof payload.eta_seconds === 'number') add('ETA', `${payload.eta_seconds} s`);
      add('Valid until', when(payload.valid_until));
      break;
    }
    case 'ACCEPT': {
      add('Offer', payload.offer_id);
      const terms = payload.terms as { price_usd?: unknown } | undefined;
      if (typeof terms?.price_usd === 'number') add('Price', `${terms.price_usd} USD`);
      add('Accepted at', when(payload.accepted_at));
      break;
    }
    case 'RESULT': {
      add('Status', payload.status);
      add('Output', payload.output, true);
      const metrics = payload.metrics as { latency_ms?: unknown; cost_actual?: unknown } | undefined;
      if (typeof metrics?.latency_ms === 'number') add('Latency', `${metrics.latency_ms} ms`);
      if (typeof metrics?.cost_actual === 'number') add('Cost', `${metrics.cost_actual}`);
      break;
    }
    case 'ERROR':
      add('Code', payload.code);
      add('Message', payload.message);
      add('Details', payload.details, true);
      break;
    case 'CANCEL':
      add('Reason', payload.reason);
      break;
    default:
      add('Payload', payload, true);
  }
  return facts;
}

export interface StoredEvent {
  readonly seq: number;
  readonly cursor: string;
  readonly receivedAt: number;
  readonly envelope: unknown;
}

export function timelineEntry(event: StoredEvent): TimelineEntry {
  const raw =
    event.envelope !== null && typeof event.envelope === 'object' ? (event.envelope as Record<string, unknown>) : {};
  const sender = raw.sender !== null && typeof raw.sender === 'object' ? (raw.sender as Record<string, unknown>) : {};
  const payload =
    raw.payload !== null && typeof raw.payload === 'object' && !Array.isArray(raw.payload)
      ? (raw.payload as Record<string, unknown>)
      : {};
  const type = str(raw.type) ?? '?';
  const parsed = Envelope.safeParse(event.envelope);
  return {
    key: event.cursor,
    seq: event.seq,
    receivedAt: event.receivedAt,
    type,
    id: str(raw.id),
    senderId: str(sender.id),
    senderName: str(sender.name),
    ts: str(raw.ts),
    envelope: parsed.success ? parsed.data : null,
    facts: factsOf(type, payload),
    rawJson: json(event.envelope),
  };
}

/** In relay order (the store's sequence), which is the order the state machine applied them. */
export const threadTimeline = (events: readonly StoredEvent[]): TimelineEntry[] =>
  [...events].sort((a, b) => a.seq - b.seq).map(timelineEntry);
