// Summarizer that shells out to the Claude Code CLI (`claude -p`), for people who are logged in to
// Claude Code but have no API key. The prompt goes on stdin, which is then closed: `-p` reads stdin
// too and would otherwise wait for it forever.
import { spawn } from 'node:child_process';
import { errorText, type Summarizer, type SummaryRequest, type SummarizerResult } from '../engine';

export interface ClaudeCliSummarizerOptions {
  /** Executable path; default `claude` from PATH. */
  path?: string;
  model?: string;
  /** Extra environment (e.g. CLAUDE_CONFIG_DIR, ANTHROPIC_BASE_URL); merged over the process's. */
  env?: Record<string, string>;
  cwd?: string;
}

/** Enough for a long summary; a runaway process is stopped rather than buffered without bound. */
const MAX_OUTPUT_BYTES = 4 * 1024 * 1024;

export class ClaudeCliSummarizer implements Summarizer {
  readonly name = 'claude-cli';
  constructor(private readonly options: ClaudeCliSummarizerOptions = {}) {}

  summarize(request: SummaryRequest, signal: AbortSignal): Promise<SummarizerResult> {
    const args = ['-p', '--output-format', 'text', ...(this.options.model ? ['--model', this.options.model] : [])];
    return new Promise((resolve) => {
      let settled = false;
      const finish = (result: SummarizerResult): void => {
        if (settled) return;
        settled = true;
        resolve(result);
      };
      const child = spawn(this.options.path || 'claude', args, {
        cwd: this.options.cwd,
        env: { ...process.env, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', ...this.options.env },
        stdio: ['pipe', 'pipe', 'pipe'],
        signal,
      });
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      let size = 0;
      child.stdout.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_OUTPUT_BYTES) child.kill();
        else stdout.push(chunk);
      });
      child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
      child.on('error', (error) => finish({ ok: false, error: `claude-cli: ${errorText(error)}` }));
      child.on('close', (code) => {
        const text = Buffer.concat(stdout).toString('utf8').trim();
        if (code === 0 && text) finish({ ok: true, value: text });
        else
          finish({
            ok: false,
            error: `claude-cli exited with ${code ?? 'signal'}: ${Buffer.concat(stderr).toString('utf8').trim().slice(0, 500) || 'no output'}`,
          });
      });
      // A child that exits before reading stdin raises EPIPE here; 'close' reports the real outcome.
      child.stdin.on('error', () => undefined);
      child.stdin.end(request.prompt);
    });
  }
}
