import { describe, expect, it } from 'vitest';
import { connectWays } from './agent-connect';

describe('connectWays', () => {
  it('fills the credential into each of the three ways, quoted for the shell', () => {
    const ways = connectWays('mqtt://127.0.0.1:1883', 'http://127.0.0.1:8787', 'agent.x', "it's");
    expect(ways.map((w) => w.label)).toEqual(['TypeScript (agent client)', 'Python (paho-mqtt)', 'MCP (LLM agents)']);
    for (const way of ways) expect(way.command).toContain(`AGENT_ID='agent.x' AGENT_PASSWORD='it'\\''s'`);
    expect(ways[0]!.command).toContain("MQTT_URL='mqtt://127.0.0.1:1883'");
    expect(ways[1]!.command).toContain('python3 examples/python/aor_agent.py');
    expect(ways[2]!.command).toBe(
      `SWITCHBOARD_URL='http://127.0.0.1:8787' AGENT_ID='agent.x' AGENT_PASSWORD='it'\\''s' ROOM=demo npx tsx examples/mcp-agent.ts`,
    );
  });
});
