// The server log of this process, captured for a test that asserts on a line (a quota refusal,
// a slow client cut): parsed lines, and a restore that puts the quiet test setup back.
import { logLevel, setLogLevel, setLogSink, type LogLevel } from '../logging/logger';

export interface LogLine {
  readonly level: string;
  readonly msg: string;
  readonly [field: string]: unknown;
}

export interface CapturedLogs {
  readonly lines: LogLine[];
  restore(): void;
}

export function captureLogs(level: LogLevel = 'info'): CapturedLogs {
  const lines: LogLine[] = [];
  const previousLevel = logLevel();
  const previousSink = setLogSink({ write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  setLogLevel(level);
  return {
    lines,
    restore() {
      setLogSink(previousSink);
      setLogLevel(previousLevel);
    },
  };
}
