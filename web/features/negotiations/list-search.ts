// The list's filter lives in the URL (`/negotiations?state=ACCEPTED`), so a view can be shared.
import { NEGOTIATION_STATES, type NegotiationStateName } from '@web/lib/api/negotiations-list';

export function parseNegotiationsSearch(search: Record<string, unknown>): { state?: NegotiationStateName } {
  const state = search['state'];
  return typeof state === 'string' && (NEGOTIATION_STATES as readonly string[]).includes(state)
    ? { state: state as NegotiationStateName }
    : {};
}
