// Issue 40's probes of the built CLI's standard streams and files that are not what they seem: every
// command with its stdout closed by the reader (as `| head -1` does), the hook with its events file
// a named pipe, and the MCP server sent a request too long to keep.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CLAUDE_FIXTURES } from '../claudeFixtures';

export const TRANSCRIPT = join(CLAUDE_FIXTURES, 'long-autonomous', 'projects', '-home-user-semver-cli', '78939266-a444-4f88-991a-bec71f2436c9.jsonl');

export interface ClosedOutRun {
  args: readonly string[];
  code: number | null;
  stderr: string;
  ms: number;
}

/**
 * Runs a command whose reader closes stdout before it is written to: every write gets EPIPE, the
 * same as behind `head -1` once head has its line, but on every run and whatever the output's size.
 */
export function withStdoutClosed(
  cli: string,
  args: readonly string[],
  options: { stdin?: string; env: NodeJS.ProcessEnv; cwd: string },
): Promise<ClosedOutRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [cli, ...args], { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.on('error', () => undefined);
  child.stdin.end(options.stdin ?? '');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ args, code, stderr, ms: performance.now() - started });
    });
  });
}

/** `node cli.js ARGS | head -1` through the shell, as a person types it: head's exit status and the command's. */
export function behindHead(cli: string, args: readonly string[], options: { env: NodeJS.ProcessEnv; cwd: string }): { codes: string; stderr: string } {
  const quoted = [process.execPath, cli, ...args].map((arg) => `'${arg.replace(/'/g, "'\\''")}'`).join(' ');
  const run = spawnSync('bash', ['-c', `${quoted} 2>"$ERR_FILE" | head -1 >/dev/null; echo "\${PIPESTATUS[@]}"; cat "$ERR_FILE"`], {
    cwd: options.cwd,
    env: { ...options.env, ERR_FILE: join(options.cwd, `head-${process.pid}.err`) },
    encoding: 'utf8',
    timeout: 60_000,
  });
  const [codes = '', ...rest] = run.stdout.split('\n');
  return { codes: codes.trim(), stderr: rest.join('\n').trim() };
}

/** Every command of the CLI that prints, with what it needs, in a scratch `root`. */
export function printingCommands(root: string): { args: string[]; stdin?: string }[] {
  const workspace = join(root, 'ws');
  mkdirSync(workspace, { recursive: true });
  const hookInput = JSON.stringify({
    session_id: 'probe',
    transcript_path: TRANSCRIPT,
    cwd: workspace,
    hook_event_name: 'PreCompact',
    trigger: 'manual',
    custom_instructions: '',
  });
  const statusInput = JSON.stringify({
    session_id: 'probe',
    transcript_path: TRANSCRIPT,
    cwd: workspace,
    model: { id: 'claude-sonnet-5-5', display_name: 'Sonnet' },
  });
  return [
    { args: ['--help'] },
    { args: ['--version'] },
    { args: ['sessions', '--all'] },
    { args: ['sessions', '--all', '--json'] },
    { args: ['inspect', TRANSCRIPT] },
    { args: ['inspect', TRANSCRIPT, '--json'] },
    { args: ['compact', TRANSCRIPT] },
    { args: ['compact', TRANSCRIPT, '--json'] },
    { args: ['connect', workspace, '--dry-run'] },
    { args: ['disconnect', workspace, '--dry-run'] },
    { args: ['archive', 'prune', '--dry-run', '--archive-dir', join(root, 'archive')] },
    { args: ['mcp', '--print-config'] },
    { args: ['hook', 'pre-compact'], stdin: hookInput },
    { args: ['statusline'], stdin: statusInput },
    { args: ['proxy', '--help'] },
    { args: ['compact', '--no-such-option'] },
  ];
}
