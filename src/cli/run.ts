// `ctxlens run [proxy options] -- <command> …`: the live proxy for the lifetime of one command. An
// agent's CLI the registry knows (its adapter's `liveProxy`) is pointed at the proxy the way it
// honours, for this command only (Claude Code: ANTHROPIC_BASE_URL; Codex: a `-c` base URL
// override; Gemini CLI and OpenCode: their variables), and the proxy sends its requests where they
// would have gone. Any other command gets ANTHROPIC_BASE_URL. The command's exit code is ours.
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { constants } from 'node:os';
import { basename } from 'node:path';
import { isLoopbackHostname } from '../proxy/http';
import { AGENTS } from '../sessions/agents';
import { PLANNING_ORIGIN, type LiveProxyPointing } from '../sessions/liveProxy';
import { inputError, parse, usageError, type Io } from './io';
import { loopbackListeners } from './listenerOwner';
import { PROXY_OPTIONS, PROXY_OPTIONS_USAGE, startFromFlags } from './proxy';

export const RUN_USAGE = `ctxlens run [proxy options] -- <command> [args…]
  Starts the live proxy on a free port, runs the command pointed at it, stops the proxy when the
  command exits and exits with its code. claude gets ANTHROPIC_BASE_URL, codex a -c override of its
  provider's base URL, gemini GOOGLE_GEMINI_BASE_URL, opencode a provider baseURL through
  OPENCODE_CONFIG_CONTENT; your configuration files are only read. The upstream defaults to where
  the agent would have gone. Example: ctxlens run -- codex
ctxlens run --via http://127.0.0.1:PORT [--via-upstream URL] -- <command> [args…]
  Points the command at a live proxy already running (VS Code's Start Live Proxy prepares its new
  terminals this way for an agent no variable points) instead of starting one. The command runs
  as it is, with a note, when that proxy does not answer, sends the command's API elsewhere, or
  its port is another user's.
${PROXY_OPTIONS_USAGE}`;

const RUN_OPTIONS = { ...PROXY_OPTIONS, via: { type: 'string' }, 'via-upstream': { type: 'string' } } as const;

/** The agent whose CLI `command` runs, by its executable's name. */
function pointingOf(command: string): LiveProxyPointing | undefined {
  const name = basename(command);
  return AGENTS.find((adapter) => adapter.liveProxy?.commands.includes(name))?.liveProxy;
}

export async function runCommand(args: readonly string[], io: Io): Promise<number> {
  const split = args.indexOf('--');
  if (split === -1 || split === args.length - 1) throw usageError('missing the command to run after --');
  const { values } = parse(args.slice(0, split), RUN_OPTIONS, 0);
  const [command, ...commandArgs] = args.slice(split + 1) as [string, ...string[]];
  const { via, 'via-upstream': viaUpstream, ...proxyValues } = values;
  if (via !== undefined) {
    if (Object.keys(proxyValues).length > 0)
      throw usageError(`--via uses a proxy already running: its options (--${Object.keys(proxyValues)[0] ?? ''}) are its own`);
    return runVia(loopbackOrigin(via), viaUpstream, command, commandArgs, io);
  }
  if (viaUpstream !== undefined) throw usageError('--via-upstream goes with --via');
  const agent = pointingOf(command);
  // Where the command's requests go without `--upstream`, checked before the proxy starts.
  const planned = agent?.point(PLANNING_ORIGIN, io.env, commandArgs);
  if (planned && !planned.ok) throw inputError(`ctxlens run: ${planned.error}`);
  const proxy = await startFromFlags(planned ? { ...proxyValues, upstream: proxyValues.upstream ?? planned.value.upstream } : proxyValues, io);
  const pointed = agent?.point(proxy.url, io.env, commandArgs);
  const how = pointed?.ok ? pointed.value : { env: { ANTHROPIC_BASE_URL: proxy.url }, args: [] };
  try {
    return await runChild(command, [...how.args, ...commandArgs], { ...io.env, ...how.env }, io);
  } finally {
    await proxy.stop();
  }
}

/** `http://127.0.0.1:PORT` (or localhost, [::1]) and nothing else: the person's requests go there. */
function loopbackOrigin(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw usageError(`--via must be http://127.0.0.1:PORT, got '${value}'`);
  }
  if (url.protocol !== 'http:' || !isLoopbackHostname(url.hostname) || url.port === '' || url.pathname !== '/' || url.search !== '' || url.username !== '')
    throw usageError(`--via must be http://127.0.0.1:PORT, got '${value}'`);
  return url.origin;
}

/**
 * The command through a proxy that runs already, or as it is (fail open) when it cannot be: the
 * agent cannot be pointed, the proxy sends its API elsewhere, nothing answers on the port, or
 * another user listens there.
 */
async function runVia(origin: string, expectedUpstream: string | undefined, command: string, commandArgs: readonly string[], io: Io): Promise<number> {
  const asItIs = (why: string): Promise<number> => {
    io.err.write(`ctxlens: ${basename(command)} runs without the live proxy: ${why}\n`);
    return runChild(command, commandArgs, io.env, io);
  };
  const pointed = pointingOf(command)?.point(origin, io.env, commandArgs);
  if (pointed === undefined) return asItIs('Context Lens does not know how to point it');
  if (!pointed.ok) return asItIs(pointed.error);
  if (expectedUpstream !== undefined && sameOrigin(pointed.value.upstream, expectedUpstream) === false)
    return asItIs(`its requests go to ${pointed.value.upstream} here; the proxy sends that API to ${expectedUpstream}`);
  if (!(await answers(origin))) return asItIs(`nothing answers on ${origin} (the proxy stopped?)`);
  // The port of a proxy that stopped without a word may be anyone's now: never another user's.
  const me = process.getuid?.();
  const others = (loopbackListeners(Number(new URL(origin).port)) ?? []).filter((uid) => uid !== me);
  if (me !== undefined && others.length > 0) return asItIs(`${origin} is another user's (uid ${others[0]}), not a proxy of yours`);
  return runChild(command, [...pointed.value.args, ...commandArgs], { ...io.env, ...pointed.value.env }, io);
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

/** A TCP connection is accepted on the origin's port within half a second. */
function answers(origin: string): Promise<boolean> {
  const url = new URL(origin);
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port) });
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Runs the command in our terminal and resolves with its exit code (the shell's 127 when it cannot start). */
function runChild(command: string, args: readonly string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  return new Promise<number>((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', env });
    // The terminal sends Ctrl-C to the whole process group; a kill aimed at us alone is passed on.
    const forward = (signal: NodeJS.Signals): void => void child.kill(signal);
    const ignore = (): void => undefined;
    process.on('SIGTERM', forward);
    process.on('SIGHUP', forward);
    process.on('SIGINT', ignore);
    const done = (code: number): void => {
      process.off('SIGTERM', forward);
      process.off('SIGHUP', forward);
      process.off('SIGINT', ignore);
      resolve(code);
    };
    child.on('error', (error) => {
      io.err.write(`ctxlens run: cannot start '${command}': ${error.message}\n`);
      done(127);
    });
    child.on('exit', (code, signal) => done(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0)));
  });
}
