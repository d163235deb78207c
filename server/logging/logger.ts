// The server log (decisions-server.md §65): one JSON object a line on stdout, with `level` (its
// name), `time` (ISO 8601), `msg` and fields such as `module`, `clientId`, `roomId`, `code` and
// `err`, never values interpolated into the message. `npm run dev` pipes it through pino-pretty;
// production writes it as it is, and does not load pino-pretty.
import { hostname } from 'node:os';
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const isLogLevel = (value: string): value is LogLevel => (LOG_LEVELS as readonly string[]).includes(value);

/**
 * Defence in depth: no log call passes a secret, and these are censored should one ever do so
 * (headers of a request or response, and fields named for a password, token or secret).
 */
export const REDACTED_PATHS: readonly string[] = [
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'password',
  'token',
  'secret',
  '*.password',
  '*.token',
  '*.secret',
];

/** Where lines go: stdout for the server; the CLI sends them to stderr (its stdout is its output). */
let sink: DestinationStream = pino.destination({ dest: 1, sync: true });

const root = pino(
  {
    level: 'info',
    base: { pid: process.pid, hostname: hostname() },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: [...REDACTED_PATHS], censor: '[redacted]' },
  },
  { write: (line: string) => sink.write(line) },
);

/** Module loggers, kept so a level set later reaches them (a pino child copies its parent's level once). */
const modules = new Set<Logger>();

/**
 * How a part that reports through a callback (the external broker's connection, the cluster's
 * election) logs: a fixed message and its fields; tests pass their own to read the lines.
 */
export type LineLogger = (msg: string, fields?: Readonly<Record<string, unknown>>) => void;

/** The logger of one part of the server: its lines carry `module`. */
export function moduleLogger(module: string): Logger {
  const child = root.child({ module });
  modules.add(child);
  return child;
}

export const logLevel = (): LogLevel => root.level as LogLevel;

/** LOG_LEVEL, applied to every logger made so far and to those made later. */
export function setLogLevel(level: LogLevel): void {
  root.level = level;
  for (const child of modules) child.level = level;
}

/**
 * The start announcements (where the server listens): written at info whatever LOG_LEVEL says,
 * since scripts and people wait for "listening on" (README "Configuration").
 */
export const announcements: Logger = root.child({ module: 'start' });
// Set on the child itself: a child made at its parent's level reads the parent's, changes included.
announcements.level = 'info';

/** Sends lines elsewhere: the CLI to stderr (fd 2), tests to a buffer. Returns the previous sink. */
export function setLogSink(next: DestinationStream | 1 | 2): DestinationStream {
  const previous = sink;
  sink = typeof next === 'number' ? pino.destination({ dest: next, sync: true }) : next;
  return previous;
}
