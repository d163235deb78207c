// How an agent connects, as a command a person can paste (shown once with a new credential).

const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/**
 * A ready-to-paste `mosquitto_sub` that connects as the agent and reads a room's public topic;
 * the client id is the agentId (both brokers accept it: decisions-server.md §38).
 */
export function connectExample(mqttUrl: string, agentId: string, password: string): string {
  let host = '127.0.0.1';
  let port = '1883';
  try {
    const url = new URL(mqttUrl);
    host = url.hostname.replace(/^\[|\]$/g, '');
    port = url.port || '1883';
  } catch {
    // keep the defaults: the address is shown beside the example anyway
  }
  return [
    `mosquitto_sub -h ${host} -p ${port} -V mqttv5`,
    `-u ${shellQuote(agentId)} -P ${shellQuote(password)} -i ${shellQuote(agentId)}`,
    `-t 'rooms/+/public' -v`,
  ].join(' ');
}

export interface ConnectWay {
  readonly label: string;
  readonly command: string;
}

/**
 * The three ways of examples/ (README there), each a command with the credential filled in: the
 * TypeScript agent client and paho-mqtt over MQTT, and an MCP client at `{origin}/mcp`
 * (docs/mcp.md). Run from a checkout of Switchboard.
 */
export function connectWays(mqttUrl: string, origin: string, agentId: string, password: string): ConnectWay[] {
  const credential = `AGENT_ID=${shellQuote(agentId)} AGENT_PASSWORD=${shellQuote(password)} ROOM=demo`;
  return [
    {
      label: 'TypeScript (agent client)',
      command: `MQTT_URL=${shellQuote(mqttUrl)} ${credential} npx tsx examples/aor-agent.ts`,
    },
    {
      label: 'Python (paho-mqtt)',
      command: `MQTT_URL=${shellQuote(mqttUrl)} ${credential} python3 examples/python/aor_agent.py`,
    },
    {
      label: 'MCP (LLM agents)',
      command: `SWITCHBOARD_URL=${shellQuote(origin)} ${credential} npx tsx examples/mcp-agent.ts`,
    },
  ];
}
