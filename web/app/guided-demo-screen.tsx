// The guided demo with the operator's negotiation moves composed in: features do not import each
// other (eslint boundaries), so the demo's step 2 gets them from here.
import { DemoPage } from '@web/features/demo/demo-page';
import { OperatorMoves } from '@web/features/negotiations/operator-moves';

const moves = (negotiationId: string) => <OperatorMoves negotiationId={negotiationId} />;

export function GuidedDemoScreen() {
  return <DemoPage negotiationMoves={moves} />;
}
