import { describe, expect, it } from 'vitest';
import {
  ErrorHandlingPayload,
  StatusUpdatePayload,
  TaskExecutionPayload,
  TaskTool,
  ToolsResponsePayload,
} from './payloads';
import { errorHandlingExample, taskExecutionExample, toolsResponseExample } from './test-support/examples';

describe('OSNAP payloads', () => {
  it('error_handling: error_code is a string, as in the example; numbers are refused', () => {
    expect(ErrorHandlingPayload.safeParse(errorHandlingExample.payload).success).toBe(true);
    expect(ErrorHandlingPayload.safeParse({ ...errorHandlingExample.payload, error_code: 1001 }).success).toBe(false);
    expect(ErrorHandlingPayload.safeParse({ task_id: 't', error_code: 'E', error_description: 'd' }).success).toBe(
      true,
    );
  });

  it('task_execution: task_invoke_url, when given, is an http(s) URL', () => {
    expect(
      TaskExecutionPayload.safeParse({ ...taskExecutionExample.payload, task_invoke_url: 'file:///etc/passwd' })
        .success,
    ).toBe(false);
    const { task_invoke_url: _url, ...withoutUrl } = taskExecutionExample.payload;
    expect(TaskExecutionPayload.safeParse(withoutUrl).success).toBe(true);
  });

  it('status_update needs task_id and task_status', () => {
    expect(StatusUpdatePayload.safeParse({ task_id: 't' }).success).toBe(false);
    expect(StatusUpdatePayload.safeParse({ task_id: 't', task_status: 'running' }).success).toBe(true);
  });

  it('tools_response: both lists, each tool named and described; SLA only on task tools', () => {
    expect(ToolsResponsePayload.parse(toolsResponseExample.payload)).toEqual(toolsResponseExample.payload);
    expect(TaskTool.safeParse({ name: 'x', description: 'y', SLA: '' }).success).toBe(false);
    expect(
      ToolsResponsePayload.safeParse({ information_tools: [{ description: 'no name' }], task_tools: [] }).success,
    ).toBe(false);
  });
});
