/**
 * `kubewasm up` as a child process, for suites that drive real clients (kubectl,
 * @kubernetes/client-node) against it: a free port, a fresh data directory, readiness through
 * /readyz, an HTTPS helper trusting the cluster CA, and a kubectl runner whose transcript goes to
 * the test log. The bundle is built once for the run by test/testing/global-setup.ts.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';

export const KUBECTL = '/usr/bin/kubectl';
export const hasKubectl = existsSync(KUBECTL);

export interface HttpsResult {
  status: number;
  text: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface KubectlResult {
  stdout: string;
  stderr: string;
  status: number | null;
}

/** Polls `check` (a synchronous kubectl call, say) every `everyMs` until it holds; fails after `timeoutMs`. */
export async function until(check: () => boolean, timeoutMs = 15_000, everyMs = 200): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

/** One `kubewasm up` in its own data directory; start() again after stop() resumes from it. */
export class UpCluster {
  readonly root = mkdtempSync(join(tmpdir(), 'kubewasm-up-'));
  readonly dataDir = join(this.root, 'data');
  port = 0;
  private child: ChildProcess | undefined;

  constructor(private readonly extraArgs: readonly string[] = []) {}

  get kubeconfig(): string {
    return join(this.dataDir, 'kubeconfig');
  }

  get ca(): Buffer {
    return readFileSync(join(this.dataDir, 'ca.crt'));
  }

  /** The admin bearer token `kubewasm up` wrote into the kubeconfig. */
  get token(): string {
    return /token: (\S+)/.exec(readFileSync(this.kubeconfig, 'utf8'))?.[1] ?? '';
  }

  auth(): Record<string, string> {
    return { Authorization: `Bearer ${this.token}` };
  }

  async start(): Promise<void> {
    if (this.port === 0) this.port = await freePort();
    const proc = spawn(
      process.execPath,
      ['bin/kubewasm.mjs', 'up', '--data-dir', this.dataDir, '--port', String(this.port), ...this.extraArgs],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.child = proc;
    let output = '';
    proc.stdout?.on('data', (c: Buffer) => {
      output += c.toString();
    });
    proc.stderr?.on('data', (c: Buffer) => {
      output += c.toString();
    });
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      if (proc.exitCode !== null) throw new Error(`kubewasm up exited: ${output}`);
      if (existsSync(this.kubeconfig) && output.includes('listening')) {
        try {
          if ((await this.https('GET', '/readyz')).text === 'ok') return;
        } catch {
          // not yet
        }
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`kubewasm up did not become ready: ${output}`);
  }

  /** SIGTERM, then the exit code. */
  async stop(): Promise<number | null> {
    const proc = this.child;
    this.child = undefined;
    if (!proc || proc.exitCode !== null) return proc?.exitCode ?? null;
    const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
    proc.kill('SIGTERM');
    return exited;
  }

  /** stop(), then remove the data directory. */
  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.root, { recursive: true, force: true });
  }

  /** An HTTPS request trusting the cluster CA (no credentials unless given in headers). */
  https(
    method: string,
    path: string,
    body?: Uint8Array | string,
    headers: Record<string, string> = {},
  ): Promise<HttpsResult> {
    return this.send(method, path, body, headers);
  }

  /** https() presenting a client certificate (PEM cert and key) in the TLS handshake. */
  httpsWithCert(
    method: string,
    path: string,
    client: { cert: string; key: string },
    body?: Uint8Array | string,
    headers: Record<string, string> = {},
  ): Promise<HttpsResult> {
    return this.send(method, path, body, headers, client);
  }

  /** The one request behind https() and httpsWithCert(). */
  private send(
    method: string,
    path: string,
    body: Uint8Array | string | undefined,
    headers: Record<string, string>,
    client?: { cert: string; key: string },
  ): Promise<HttpsResult> {
    return new Promise((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: this.port, method, path, ca: this.ca, headers, ...client },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => {
            text += c;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
        },
      );
      req.on('error', reject);
      if (body !== undefined) req.end(body);
      else req.end();
    });
  }

  /** Runs the real kubectl against this cluster; the transcript goes to the test log as evidence. */
  kubectl(...args: string[]): KubectlResult {
    return this.kubectlWithInput(undefined, ...args);
  }

  /**
   * kubectl without blocking the test's event loop — for commands that wait on the cluster
   * (`rollout status`, `wait`, `drain`) while the test changes it.
   */
  kubectlAsync(...args: string[]): Promise<KubectlResult> {
    return new Promise((resolve, reject) => {
      const proc = spawn(KUBECTL, args, {
        env: { ...process.env, KUBECONFIG: this.kubeconfig, HOME: this.root },
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 60_000,
      });
      let stdout = '';
      let stderr = '';
      proc.stdout.on('data', (c: Buffer) => {
        stdout += c.toString();
      });
      proc.stderr.on('data', (c: Buffer) => {
        stderr += c.toString();
      });
      proc.once('error', reject);
      proc.once('close', (status) => {
        console.log(`$ kubectl ${args.join(' ')}\n${stdout}${stderr}`);
        resolve({ stdout, stderr, status });
      });
    });
  }

  /** kubectl that must succeed quietly (exit 0, nothing on stderr): its stdout. */
  kubectlOk(...args: string[]): string {
    const res = this.kubectl(...args);
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    return res.stdout;
  }

  /** kubectl with `input` on stdin (for `-f -`). */
  kubectlWithInput(input: string | undefined, ...args: string[]): KubectlResult {
    const res = spawnSync(KUBECTL, args, {
      encoding: 'utf8',
      input,
      env: { ...process.env, KUBECONFIG: this.kubeconfig, HOME: this.root },
      timeout: 30_000,
    });
    console.log(`$ kubectl ${args.join(' ')}\n${res.stdout}${res.stderr}`);
    return { stdout: res.stdout, stderr: res.stderr, status: res.status };
  }
}
