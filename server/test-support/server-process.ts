// A Switchboard server as a child process, started like `npm start` starts it, for tests that
// must kill it (SIGKILL) and start it again on the same data directory.
import { spawn, type ChildProcess } from 'node:child_process';
import { SERVER_MAIN } from './compiled-entry';

export interface ServerProcess {
  readonly child: ChildProcess;
  readonly url: string;
  readonly mqttUrl: string;
  readonly output: () => string;
}

/** `entry`: the node arguments that run the server; the compiled bundle by default. */
export function startServerProcess(
  env: Record<string, string>,
  entry: readonly string[] = SERVER_MAIN,
): Promise<ServerProcess> {
  const child = spawn(process.execPath, entry, {
    env: { ...process.env, PORT: '0', MQTT_PORT: '0', DEMO: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${log}`)), 30_000);
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      const url = /listening on (http:\/\/[^\s"]+)/.exec(log)?.[1];
      const mqttUrl = /MQTT for agents on (mqtt:\/\/[^\s"]+)/.exec(log)?.[1];
      if (url && mqttUrl) {
        clearTimeout(timer);
        resolve({ child, url, mqttUrl, output: () => log });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${log}`));
    });
  });
}

export function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** Ends the server with `signal` and resolves once it exited; a SIGTERM that takes over 30 s fails. */
export function stopped(s: ServerProcess, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
  if (signal === 'SIGKILL') return killed(s.child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the server did not stop within 30 s of SIGTERM:\n${s.output()}`)),
      30_000,
    );
    s.child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    s.child.kill('SIGTERM');
  });
}
