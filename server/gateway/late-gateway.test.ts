// The slot a broker's intake hands candidates to before the gateway exists.
import { expect, it } from 'vitest';
import type { BrokerMessage } from '../mqtt/broker-port';
import { lateGateway } from './late-gateway';

const message = (n: number): BrokerMessage => ({
  topic: 'rooms/r1/public_candidates',
  payload: new Uint8Array([n]),
  publisher: { kind: 'agent', agentId: 'agent.a' },
  receivedAt: n,
});

it('holds candidates that come before the gateway, hands them over in order once attached, and the later ones at once', async () => {
  const slot = lateGateway();
  const admitted: number[] = [];
  const early = [1, 2, 3].map((n) => slot.admitCandidate(message(n)));
  await new Promise((resolve) => setTimeout(resolve, 10));
  expect(admitted).toEqual([]);
  slot.attach({ admitCandidate: async (m) => void admitted.push(m.payload[0]!) });
  await Promise.all(early);
  expect(admitted).toEqual([1, 2, 3]);
  // Attached: called synchronously, so it keeps its place relative to the intake's other writes.
  void slot.admitCandidate(message(4));
  expect(admitted).toEqual([1, 2, 3, 4]);
});
