// Public surface of the live proxy: start it with options, stop it; plus the contracts other
// processes share with it (event stream, compaction requests, recall archive).
import { join } from 'node:path';
import type { EngineOptionsInput } from '../engine';
import type { Result } from '../sessions/types';
import { requestsDir } from './control';
import { EVENTS_FILE, ProxyEventWriter, proxyStateDir } from './events';
import { panelDir } from './panelInstructions';
import { recallDir } from './recall';
import { pruneRecall } from './recallPrune';
import { DEFAULT_LIVE_OPTIONS, LiveRewriter, type LiveDirs, type LiveOptions, type Rewriting } from './rewrite';
import type { FormatName } from './formats';
import { DEFAULT_UPSTREAM, startProxyServer, type RunningProxy } from './server';
import { workerEntry, WorkerRewriter } from './workerRewriter';

export { DEFAULT_LIVE_OPTIONS, LiveRewriter, type LiveOptions } from './rewrite';
export { DEFAULT_UPSTREAM, isLocalHost, type RunningProxy } from './server';
export { proxyEventsPath, proxyStateDir, readProxyEvents, type ProxyEvent } from './events';
export { requestsDir, takeCompactionRequests, writeCompactionRequest } from './control';
export { recallDir, recallOriginal, REF_IN_TEXT } from './recall';
export { panelDir, writePanelInstructions, type PanelSay } from './panelInstructions';

/** When the engine is warmed up after the proxy starts listening. */
export const WARM_UP_AFTER_MS = 1_000;

/** How often the recall archive is pruned: what a busy session archives in that time is small. */
const RECALL_PRUNE_EVERY_MS = 10 * 60 * 1000;

/** Where each API's requests go when nothing says otherwise: its provider's own API. */
export const DEFAULT_UPSTREAMS: Readonly<Record<FormatName, string>> = {
  'anthropic-messages': DEFAULT_UPSTREAM,
  'openai-responses': 'https://api.openai.com',
  'openai-chat': 'https://api.openai.com',
  gemini: 'https://generativelanguage.googleapis.com',
};

export interface LiveProxyOptions {
  port?: number;
  /** Where every request goes (`--upstream`, a stand-in); without it each format goes to `upstreams`, else its provider. */
  upstream?: string;
  /** Where one format's requests go (an agent's own base URL), when `upstream` does not say. */
  upstreams?: Partial<Record<FormatName, string>>;
  live?: Partial<Omit<LiveOptions, 'engine'>> & { engine?: EngineOptionsInput };
  env: Readonly<Record<string, string | undefined>>;
  /** Overrides the state folder (events, requests, recall archive). */
  stateDir?: string;
  maxBodyBytes?: number;
  /** What all requests' bodies may hold together (DEFAULT_MAX_HELD_BYTES). */
  maxHeldBytes?: number;
  log?: (line: string) => void;
}

export interface LiveProxy extends RunningProxy {
  readonly eventsPath: string;
  readonly stateDir: string;
  readonly rewriter: Rewriting;
}

/**
 * The rewrite on a worker thread, so the proxy's own (and the extension host's, under Start Live
 * Proxy) never waits on a batch; on this thread only when the worker's file is missing, said once.
 */
function rewritingOf(options: LiveOptions, dirs: LiveDirs, log: (line: string) => void): Rewriting {
  const entry = workerEntry();
  if (entry) return new WorkerRewriter({ options, dirs }, entry, log);
  log('no proxy-worker.js beside the proxy: rewrites run on its own thread, and other streams wait while they do');
  return new LiveRewriter(options, dirs, log);
}

export async function startLiveProxy(options: LiveProxyOptions): Promise<Result<LiveProxy, string>> {
  const stateDir = options.stateDir ?? proxyStateDir(options.env);
  const eventsPath = join(stateDir, EVENTS_FILE);
  const log = options.log ?? (() => undefined);
  const dirs: LiveDirs = { recall: recallDir(stateDir), requests: requestsDir(stateDir), panel: panelDir(stateDir) };
  const rewriter = rewritingOf({ ...DEFAULT_LIVE_OPTIONS, ...options.live, engine: options.live?.engine ?? {} }, dirs, log);
  const events = new ProxyEventWriter(eventsPath, (error) => log(`cannot write the event stream: ${error instanceof Error ? error.message : String(error)}`));
  // Requests no format reads (count_tokens, model lists) go where Anthropic's do, as they always did.
  const upstreams: Partial<Record<FormatName, string>> = options.upstream === undefined ? { ...DEFAULT_UPSTREAMS, ...options.upstreams } : {};
  const started = await startProxyServer({
    port: options.port ?? 0,
    upstream: options.upstream ?? upstreams['anthropic-messages'] ?? DEFAULT_UPSTREAM,
    upstreams,
    rewriter,
    events,
    log,
    ...(options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : {}),
    ...(options.maxHeldBytes ? { maxHeldBytes: options.maxHeldBytes } : {}),
  });
  if (!started.ok) {
    await rewriter.close();
    return started;
  }
  // While the agent is still starting: the engine's one-off start-up then holds no stream in the
  // middle of a session. Not before listening (every start took ~1 s longer) nor at once (a short
  // `run -- cmd` paid it and 50 MB for nothing).
  const warm = setTimeout(
    () => void rewriter.warmUp().catch((error: unknown) => log(`engine warm-up failed: ${error instanceof Error ? error.message : String(error)}`)),
    WARM_UP_AFTER_MS,
  ).unref();
  // The recall archive is pruned now and then while the proxy runs (by age and size, recallPrune.ts).
  const prune = (): void => void pruneRecall(dirs.recall).then((removed) => removed > 0 && log(`pruned ${removed} archived outputs from the recall folder`));
  prune();
  const timer = setInterval(prune, RECALL_PRUNE_EVERY_MS).unref();
  const stop = (graceMs?: number): Promise<void> => {
    clearInterval(timer);
    clearTimeout(warm);
    return started.value.stop(graceMs).finally(() => rewriter.close());
  };
  return { ok: true, value: { ...started.value, stop, eventsPath, stateDir, rewriter } };
}
