// `ctxlens connect|disconnect [DIR]`: the VS Code command's edit from a terminal. The hooks,
// the status line and the MCP server run this very CLI (and its status line bundle beside it) with
// the Node that runs it now.
import { resolve } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { CommandPaths, ConnectVerb } from '../sessions/connection';
import { connectableAgent, type Connectable } from '../sessions/connectable';
import { AGENT_OPTION, agentOption, EXIT_OK, inputError, parse, usageError, type Io } from './io';

export const CONNECT_USAGE = `ctxlens connect|disconnect [DIR | --workspace DIR] [--dry-run] [--agent ID]
  Adds to (or removes from) DIR/.claude/settings.local.json (DIR defaults to the current folder)
  the pre-compact and session-start hooks and, when none is set, the status line, all running this
  CLI, and to DIR/.mcp.json the Context Lens MCP server (the agent's compact_context and recall
  tools). Prints the changes as diffs; --dry-run writes nothing. Only those entries change: the rest
  of each file stays byte for byte, and the previous content is copied to
  $XDG_STATE_HOME/context-lens/settings-backups/ first. Disconnect removes a file Connect created.
  Either file (or .claude) being a symbolic link is refused, naming where it points: nothing is
  written through a link, which a repository can point out of the workspace.
  --agent: the agent to connect (default: Claude Code). codex: a SessionStart hook in
  DIR/.codex/hooks.json and hooks turned on in DIR/.codex/config.toml; gemini: a BeforeAgent hook in
  DIR/.gemini/settings.json; opencode: a plugin file in DIR/.opencode/plugins/. Each puts the pinned
  block (your rules, decisions, open loops and recent prompts) back after the agent's own compaction.`;

/** The agent `--agent` names, or the only one that can be connected. */
export function connectableOption(value: string | undefined): Connectable {
  const agent = connectableAgent(agentOption(value)?.id);
  if (!agent.ok) throw usageError(agent.error.message);
  return agent.value;
}

/** The commands run this very CLI (bundled, __dirname is dist/, which holds cli.js and statusline.js) with the Node that runs it now. */
export function thisCli(): CommandPaths {
  return { node: process.execPath, binDir: __dirname, platform: process.platform };
}

export async function connectCommand(verb: ConnectVerb, args: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, { 'dry-run': { type: 'boolean' }, workspace: { type: 'string' }, ...AGENT_OPTION }, 1);
  if (values.workspace !== undefined && positionals[0] !== undefined) throw usageError('name the folder once: DIR or --workspace DIR');
  const { connection } = connectableOption(values.agent);
  const planned = await connection.plan(verb, resolve(values.workspace ?? positionals[0] ?? process.cwd()), thisCli());
  if (!planned.ok) throw inputError(planned.error.message);
  const plan = planned.value;
  if (plan.refused !== null) throw inputError(plan.refused.message);
  for (const note of plan.notes) io.err.write(`${note}\n`);
  if (plan.changes.length === 0) {
    io.out.write(verb === 'connect' ? `Already connected: ${plan.settingsPath}\n` : `Not connected: ${plan.settingsPath}\n`);
    return EXIT_OK;
  }
  for (const { target, before, after } of plan.changes)
    io.out.write(createTwoFilesPatch(target, target, before ?? '', after, 'before', verb === 'connect' ? 'connected' : 'disconnected'));
  if (values['dry-run']) {
    io.out.write('Dry run: nothing written.\n');
    return EXIT_OK;
  }
  let failed: string | null = null;
  for (const { change, saved } of await connection.save(plan, io.env)) {
    if (!saved.ok) {
      failed ??= saved.error.message;
      io.err.write(`Could not write ${change.target}: ${saved.error.message}\n`);
      continue;
    }
    io.out.write(saved.value.removed ? `Removed ${change.target} (Connect had created it)\n` : `Wrote ${change.target}\n`);
    if (saved.value.backup !== null) io.out.write(`The previous content is in ${saved.value.backup}\n`);
  }
  if (failed !== null) throw inputError(failed);
  return EXIT_OK;
}
