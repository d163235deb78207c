// The log's shape, its level switch and its redaction, through the real pino instance.
import { afterEach, describe, expect, it } from 'vitest';
import { captureLogs, type CapturedLogs } from '../test-support/captured-logs';
import { moduleLogger, setLogLevel } from './logger';

let captured: CapturedLogs | undefined;
afterEach(() => captured?.restore());

describe('the server log', () => {
  it('writes one JSON object a line with level, time, msg, the module and the fields', () => {
    captured = captureLogs('info');
    moduleLogger('gateway').warn({ roomId: 'r1', code: 'X' }, 'something happened');
    expect(captured.lines).toEqual([
      expect.objectContaining({ level: 'warn', module: 'gateway', roomId: 'r1', code: 'X', msg: 'something happened' }),
    ]);
    expect(new Date(captured.lines[0]!.time as string).toISOString()).toBe(captured.lines[0]!.time);
  });

  it('applies a level set later to module loggers made earlier', () => {
    const early = moduleLogger('early');
    captured = captureLogs('info');
    early.debug('hidden');
    setLogLevel('debug');
    early.debug('shown');
    setLogLevel('silent');
    early.error('hidden too');
    expect(captured.lines.map((l) => l.msg)).toEqual(['shown']);
  });

  it('censors credentials in headers and fields named for secrets, should a call ever pass them', () => {
    captured = captureLogs('info');
    moduleLogger('http').info(
      {
        req: { headers: { authorization: 'Bearer planted-metrics', cookie: 'sb_session=planted-cookie' } },
        res: { headers: { 'set-cookie': 'sb_session=planted-set-cookie' } },
        webhook: { secret: 'planted-secret' },
        password: 'planted-password',
      },
      'request',
    );
    const line = JSON.stringify(captured.lines);
    expect(line).not.toMatch(/planted/);
    expect(captured.lines[0]).toMatchObject({ password: '[redacted]', webhook: { secret: '[redacted]' } });
  });
});
