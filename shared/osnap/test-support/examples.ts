// The OSNAP spec's examples, verbatim (004_d697d89cfadd6eb2.txt; the °F mojibake included).
export const taskRequestExample = {
  sender_agent_id: 'agent-123',
  receiver_agent_id: 'agent-456',
  message_type: 'task_request',
  payload: {
    task_id: 'task-789',
    task_name: 'schedule_meeting',
    task_data: { participants: ['personA@example.com', 'personB@example.com'], date: '2023-05-01', time: '14:00' },
  },
  metadata: { timestamp: '2023-04-29T10:30:00Z', priority: 'medium' },
};

export const requestExample = {
  sender_agent_id: 'agent-123',
  receiver_agent_id: 'agent-456',
  message_type: 'request',
  payload: {
    request_id: 'request-789',
    request_action: 'get_weather',
    request_data: { location: 'New York', date: '2023-05-01' },
  },
  metadata: { timestamp: '2023-04-29T10:30:00Z', priority: 'medium' },
};

export const responseExample = {
  sender_agent_id: 'agent-456',
  receiver_agent_id: 'agent-123',
  message_type: 'response',
  payload: {
    request_id: 'request-789',
    status: 'success',
    response_data: { temperature: '72Â°F', weather_condition: 'Sunny' },
  },
  metadata: { timestamp: '2023-04-29T10:32:00Z' },
};

export const taskExecutionExample = {
  sender_agent_id: 'agent-123',
  receiver_agent_id: 'agent-456',
  message_type: 'task_execution',
  payload: {
    task_id: 'task-789',
    task_invoke_url: 'https://example.com/agent-456/task/789',
    task_name: 'schedule_meeting',
    task_data: { participants: ['personA@example.com', 'personB@example.com'], date: '2023-05-01', time: '14:00' },
  },
  metadata: { timestamp: '2023-04-29T10:30:00Z', priority: 'high' },
};

export const statusUpdateExample = {
  sender_agent_id: 'agent-456',
  receiver_agent_id: 'agent-123',
  message_type: 'status_update',
  payload: {
    task_id: 'task-789',
    task_status: 'completed',
    task_result: { meeting_url: 'https://example.com/meeting/12345' },
  },
  metadata: { timestamp: '2023-04-29T10:35:00Z' },
};

export const errorHandlingExample = {
  sender_agent_id: 'agent-456',
  receiver_agent_id: 'agent-123',
  message_type: 'error_handling',
  payload: {
    request_id: 'request-789',
    error_code: '1001',
    error_description: 'Failed to fetch weather data',
    additional_info: 'API key is invalid',
  },
  metadata: { timestamp: '2023-04-29T10:33:00Z' },
};

export const agentsResponseExample = [
  {
    agent_id: 'f287b6e8-8a67-4c10-9a45-12a05a8f1b87',
    agent_name: 'Example Agent',
    agent_description: 'Does lots of nice agent things',
    agent_endpoint: 'https://example.com/run/f287b6e8-8a67-4c10-9a45-12a05a8f1b87',
    tools: { example_capability: { description: 'An example capability.', plugin: 'ExamplePlugin' } },
    scope: 'public',
  },
  {
    agent_id: '184755d2-2f40-4563-96a9-9d30fd6b69ca',
    tools: { example_capability: { description: 'Another example capability.', plugin: 'AnotherExamplePlugin' } },
    scope: 'private',
    authorized_agents: ['c6a2f2e9-0689-4e7d-8a04-6b3abefc1e3d'],
  },
];

export const toolsQueryExample = {
  sender_agent_id: 'agent-123',
  receiver_agent_id: 'agent-456',
  message_type: 'tools_query',
  metadata: { timestamp: '2023-04-29T10:30:00Z', priority: 'low', order: 1 },
};

export const toolsResponseExample = {
  sender_agent_id: 'agent-456',
  receiver_agent_id: 'agent-123',
  message_type: 'tools_response',
  payload: {
    information_tools: [
      {
        name: 'get_weather',
        description: 'Provides weather information for a given location and date',
        request_format: { location: 'string', date: 'string (YYYY-MM-DD)' },
      },
    ],
    task_tools: [
      {
        name: 'schedule_meeting',
        description: 'Schedules a meeting with the specified participants, date, and time',
        request_format: {
          participants: 'list of email addresses',
          date: 'string (YYYY-MM-DD)',
          time: 'string (HH:mm)',
        },
        SLA: '60 minutes',
      },
    ],
  },
  metadata: { timestamp: '2023-04-29T10:32:00Z' },
};
