// `ctxlens proxy`: the live proxy in the foreground until Ctrl-C. Shares its options with
// `ctxlens run`, which starts it around one command.
import { DEFAULT_LIVE_OPTIONS, DEFAULT_UPSTREAM, startLiveProxy, type LiveProxy, type LiveProxyOptions } from '../proxy';
import { EXIT_OK, inputError, parse, positiveInt, usageError, type Io } from './io';

export const PROXY_OPTIONS_USAGE = `  --port N              listen on 127.0.0.1:N (default: a free port)
  --upstream URL        where every request goes (default: each API's own: $ANTHROPIC_BASE_URL, else ${DEFAULT_UPSTREAM};
                        OpenAI's https://api.openai.com; Gemini's $GOOGLE_GEMINI_BASE_URL, else Google's)
  --window N            the model's context window in tokens (default ${DEFAULT_LIVE_OPTIONS.windowTokens})
  --trigger-percent N   edit once a request would fill this share of the window (default ${DEFAULT_LIVE_OPTIONS.triggerPercent})
  --target-percent N    a batch of edits aims for this share (default 80 % of the trigger)
  --min-batch-tokens N  a batch must save this many tokens to be worth a cache rewrite (default ${DEFAULT_LIVE_OPTIONS.minBatchTokens})
  --budget-ms N         time the proxy means to add to a request; a slower one says so in its event (default ${DEFAULT_LIVE_OPTIONS.budgetMs})
  --focus TEXT          keep what matches verbatim in every batch
  --state-dir DIR       events, compaction requests and recall archive (default $XDG_STATE_HOME/context-lens/proxy)`;

export const PROXY_USAGE = `ctxlens proxy [options]
  A loopback proxy for the Anthropic Messages API (point ANTHROPIC_BASE_URL at it), OpenAI's
  Responses and Chat Completions APIs and Gemini's API (\`ctxlens run -- <agent>\` points one): below the
  trigger requests pass unchanged; above it superseded tool outputs become stubs, old ones are
  cleared or truncated, in batches, identically in every later request (prompt cache kept).
  Never summarises. Headers are forwarded untouched and never logged; one event per request.
${PROXY_OPTIONS_USAGE}`;

export const PROXY_OPTIONS = {
  port: { type: 'string' },
  upstream: { type: 'string' },
  window: { type: 'string' },
  'trigger-percent': { type: 'string' },
  'target-percent': { type: 'string' },
  'min-batch-tokens': { type: 'string' },
  'budget-ms': { type: 'string' },
  focus: { type: 'string' },
  'state-dir': { type: 'string' },
} as const;

type ProxyValues = Partial<Record<keyof typeof PROXY_OPTIONS, string>>;

function percent(value: string | undefined, flag: string): number | undefined {
  const number = positiveInt(value, flag);
  if (number !== undefined && number >= 100) throw usageError(`${flag} must be below 100, got ${number}`);
  return number;
}

/** The proxy's options from the flags; `ANTHROPIC_BASE_URL` is where the agent would have gone. */
export function proxyOptionsOf(values: ProxyValues, io: Io, log: (line: string) => void): LiveProxyOptions {
  const port = values.port === undefined ? 0 : positiveInt(values.port, '--port');
  if (port !== undefined && port > 65_535) throw usageError(`--port must be at most 65535, got ${port}`);
  const trigger = percent(values['trigger-percent'], '--trigger-percent');
  const target = percent(values['target-percent'], '--target-percent');
  if (target !== undefined && target >= (trigger ?? DEFAULT_LIVE_OPTIONS.triggerPercent)) throw usageError('--target-percent must be below the trigger');
  const live: LiveProxyOptions['live'] = {};
  const window = positiveInt(values.window, '--window');
  const minBatch = positiveInt(values['min-batch-tokens'], '--min-batch-tokens');
  const budget = positiveInt(values['budget-ms'], '--budget-ms');
  if (window !== undefined) live.windowTokens = window;
  if (trigger !== undefined) live.triggerPercent = trigger;
  if (minBatch !== undefined) live.minBatchTokens = minBatch;
  if (budget !== undefined) live.budgetMs = budget;
  live.engine = { ...(target !== undefined ? { targetPercent: target } : {}), ...(values.focus ? { focus: values.focus } : {}) };
  return {
    port: port ?? 0,
    ...(values.upstream ? { upstream: values.upstream } : {}),
    upstreams: {
      ...(io.env.ANTHROPIC_BASE_URL ? { 'anthropic-messages': io.env.ANTHROPIC_BASE_URL } : {}),
      ...(io.env.GOOGLE_GEMINI_BASE_URL ? { gemini: io.env.GOOGLE_GEMINI_BASE_URL } : {}),
    },
    live,
    env: io.env,
    ...(values['state-dir'] ? { stateDir: values['state-dir'] } : {}),
    log,
  };
}

export async function startFromFlags(values: ProxyValues, io: Io): Promise<LiveProxy> {
  const log = (line: string): void => void io.err.write(`ctxlens proxy: ${line}\n`);
  const started = await startLiveProxy(proxyOptionsOf(values, io, log));
  if (!started.ok) throw inputError(started.error);
  return started.value;
}

/** Resolves on the first SIGINT or SIGTERM. */
export function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const done = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve(signal);
    };
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
  });
}

export async function proxyCommand(args: readonly string[], io: Io): Promise<number> {
  const { values } = parse(args, PROXY_OPTIONS, 0);
  const proxy = await startFromFlags(values, io);
  io.out.write(`Listening on ${proxy.url}\nexport ANTHROPIC_BASE_URL=${proxy.url}\nEvents: ${proxy.eventsPath}\n`);
  await untilSignal();
  await proxy.stop();
  return EXIT_OK;
}
