// What the Agora screens say, in words: thread states, presence, pricing, relay refusals.
import { ApiError } from '@web/lib/api/http';

export interface ThreadEndingLike {
  readonly type: string;
  readonly phase?: string | undefined;
  readonly code?: string | undefined;
}

const TIMEOUT_PHASE: Record<string, string> = {
  no_offer: 'no agent made an offer in time',
  no_accept: 'no offer was accepted in time',
  no_result: 'the accepted agent did not deliver a result in time',
};

/** A thread's state as a short label and a sentence (Agora v1.0 "Thread State Machine"). */
export function threadStatusWords(status: string, ended?: ThreadEndingLike): { label: string; detail: string } {
  switch (status) {
    case 'OPEN':
      return { label: 'Open', detail: 'No request yet.' };
    case 'PENDING':
      return { label: 'Pending', detail: 'Waiting for offers, and for the client to accept one.' };
    case 'ACTIVE':
      return { label: 'Active', detail: 'An offer was accepted; waiting for its result.' };
    case 'COMPLETED':
      return { label: 'Completed', detail: 'The result arrived.' };
    case 'ERROR': {
      if (!ended) return { label: 'Error', detail: 'The thread ended without a result.' };
      if (ended.type === 'timeout')
        return { label: 'Error', detail: `Timed out: ${TIMEOUT_PHASE[ended.phase ?? ''] ?? 'a deadline passed'}.` };
      if (ended.type === 'cancelled') return { label: 'Error', detail: 'The client cancelled it.' };
      return { label: 'Error', detail: `Ended by an ERROR message${ended.code ? ` (${ended.code})` : ''}.` };
    }
    default:
      return { label: status, detail: '' };
  }
}

export function presenceWords(status: string): string {
  switch (status) {
    case 'online':
      return 'Online';
    case 'stale':
      return 'Stale (heartbeats missed)';
    case 'offline':
      return 'Offline';
    default:
      return 'Never seen';
  }
}

export function pricingWords(pricing: Readonly<Record<string, unknown>> | undefined): string {
  if (!pricing) return 'No pricing declared';
  const currency = typeof pricing.currency === 'string' ? pricing.currency : '';
  switch (pricing.model) {
    case 'free':
      return 'Free';
    case 'fixed':
      return typeof pricing.amount === 'number' ? `${pricing.amount} ${currency} per request`.trim() : 'Fixed price';
    case 'metered':
      return typeof pricing.metered_rate === 'number'
        ? `${pricing.metered_rate} ${currency} per ${typeof pricing.metered_unit === 'string' ? pricing.metered_unit : 'unit'}`.replace(
            '  ',
            ' ',
          )
        : 'Metered';
    case 'subscription':
      return 'Subscription';
    default:
      return typeof pricing.model === 'string' ? pricing.model : 'No pricing declared';
  }
}

const REASON_WORDS: Record<string, string> = {
  signature_invalid: 'The relay could not verify the signature.',
  timestamp_too_old:
    'The envelope’s time is more than 5 minutes behind the relay’s clock. Check this computer’s clock.',
  timestamp_in_future:
    'The envelope’s time is more than 5 minutes ahead of the relay’s clock. Check this computer’s clock.',
  ttl_expired: 'The envelope expired before the relay received it.',
  thread_closed: 'The thread has already ended.',
  thread_not_pending: 'The thread no longer takes offers or an acceptance.',
  duplicate_accept: 'An offer in this thread was already accepted.',
  offer_expired: 'The offer is past its valid_until.',
  offer_not_found: 'The relay knows no such offer in this thread.',
  not_the_client: 'Only the client who sent the REQUEST may accept its offers.',
  not_a_party: 'This key is not a party to the thread.',
  schema_invalid: 'The relay refused the envelope’s shape.',
  id_conflict: 'That message id was already used.',
  payload_too_large: 'The envelope is larger than the relay accepts (64 KiB).',
};

/** A refusal of POST /events in words, always ending with its code (and reason). */
export function relayErrorWords(error: unknown): string {
  if (error instanceof ApiError) {
    const details = error.details as { reason?: unknown } | undefined;
    const reason = typeof details?.reason === 'string' ? details.reason : undefined;
    const words = (reason && REASON_WORDS[reason]) ?? error.message;
    return `${words} (${error.code}${reason ? `, ${reason}` : ''})`;
  }
  if (error instanceof Error && 'code' in error && typeof (error as { code: unknown }).code === 'string') {
    return `${error.message} (${(error as { code: string }).code})`;
  }
  return error instanceof Error ? error.message : 'Something went wrong.';
}
