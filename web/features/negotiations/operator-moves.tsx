// The operator's part in one negotiation, away from its page: its moves when it is a party
// (signed in this browser) and the agreement with its co-signature, on the history this browser
// verified. The guided demo shows it under its story (composed in web/app), so a stakeholder
// sees the operator answer and co-sign (docs/decisions-demo.md §13).
import { useQuery } from '@tanstack/react-query';
import type { PartyDid } from '@shared/negotiation/primitives';
import { negotiationQuery } from '@web/lib/api/negotiation-get';
import { useSession } from '@web/lib/identity/use-session';
import { useNow } from '@web/lib/use-now';
import { AgreementPanel } from './agreement-panel';
import { PartyActions } from './party-actions';
import { useVerdict } from './use-verdict';

export function OperatorMoves({ negotiationId }: { negotiationId: string }) {
  const detail = useQuery(negotiationQuery(negotiationId)).data;
  const verdict = useVerdict(detail);
  const me = useSession()?.did;
  const now = useNow(1_000);
  if (!detail || !me || !detail.negotiation.parties.includes(me)) return null;
  const replayed = verdict?.replay.ok ? verdict.replay.state : null;
  return (
    <div className="space-y-4" data-testid="operator-moves">
      {replayed && replayed.status !== 'ACCEPTED' ? (
        <PartyActions
          key={`${replayed.history.length}`}
          state={replayed}
          me={me as PartyDid}
          now={now}
          defaultValidityMinutes={detail.limits.defaultValidityMinutes}
        />
      ) : null}
      <AgreementPanel detail={detail} verdict={verdict} me={me} />
    </div>
  );
}
