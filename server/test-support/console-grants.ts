// Grants published the way a facilitator's console publishes them: over the server's /mqtt
// WebSocket with a session cookie (for tests that run the server as a process).
import { connectClient } from './mqtt-clients';

/** One grant per agent on task `t1` of room r1, 10,000 messages of `progress`, for an hour. */
export async function grantFromConsole(
  serverUrl: string,
  cookie: string,
  facilitatorDid: string,
  agentIds: readonly string[],
  now: number,
): Promise<void> {
  const facilitator = await connectClient(`${serverUrl.replace('http', 'ws')}/mqtt`, {
    wsOptions: { headers: { cookie, origin: serverUrl } },
  });
  for (const agentId of agentIds) {
    await facilitator.client.publishAsync(
      'rooms/r1/control',
      JSON.stringify({
        id: `grant_${agentId}`,
        type: 'mic_grant',
        room_id: 'r1',
        from: { kind: 'user', id: facilitatorDid },
        ts: now,
        payload: {
          task_id: 't1',
          agent_id: agentId,
          max_messages: 10_000,
          allowed_message_types: ['progress'],
          expires_at: now + 3600,
        },
      }),
      { qos: 1 },
    );
  }
  await facilitator.client.endAsync(true);
}
