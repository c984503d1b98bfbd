// The MCP server the agent talks to (stdio): `compact_context` lets it ask for a compaction at a
// task boundary, `recall` brings back an output a proxy stub names. The tools change nothing in the
// conversation themselves: the proxy applies a compaction to the next request it forwards.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { version } from '../../package.json';
import { requestsDir, writeCompactionRequest } from '../proxy/control';
import { MCP_SERVER_NAME } from '../contracts/mcpServer';
import { recallDir, recallOriginal, sessionRecallDir } from '../proxy/recall';
import { agentSessionIdOf } from '../proxy/session';
import { estimateCompaction, estimateSentence, type CompactEstimate, type EstimateInputs } from './compactEstimate';
import { sessionOfCall } from './sessionOfCall';
import type { Result } from '../sessions/types';

export const TOOL_NAMES = { compact: 'compact_context', recall: 'recall' } as const;

const reply = (text: string, isError = false) => ({ content: [{ type: 'text' as const, text }], ...(isError ? { isError: true } : {}) });

/**
 * The agent session that started this server: Claude Code puts it in CLAUDE_CODE_SESSION_ID for the
 * processes it starts. A compaction request carries it so the proxy applies it to that session only;
 * the other agents name none (sessionOfCall.ts finds it, or refuses).
 */
export function agentSessionOfEnv(env: NodeJS.ProcessEnv): string | null {
  return agentSessionIdOf(env.CLAUDE_CODE_SESSION_ID?.trim());
}

/** compact_context's structured result: the request's id and whether it pays (null figures: no estimate or no price). */
const compactOutput = {
  /**
   * The whole answer again: Claude Code hands the model the structured content instead of the text
   * when there is some (the integration test with the real CLI found no text in the tool result).
   */
  message: z.string(),
  requestId: z.string(),
  cost: z
    .object({
      model: z.string().nullable(),
      beforeTokens: z.number(),
      afterTokens: z.number(),
      oneOffUsd: z.number().nullable(),
      savingPerCallUsd: z.number().nullable(),
      breakEvenCalls: z.number().nullable(),
    })
    .nullable(),
  /** The sentence the text ends with: the break-even, "no price for <model>", or why there is no estimate. */
  costText: z.string(),
};

function costOutput(estimate: Result<CompactEstimate, string>) {
  if (!estimate.ok) return null;
  const { model, beforeTokens, afterTokens, cost } = estimate.value;
  return {
    model: cost?.model ?? model,
    beforeTokens,
    afterTokens,
    oneOffUsd: cost?.oneOffUsd ?? null,
    savingPerCallUsd: cost?.savingPerCallUsd ?? null,
    breakEvenCalls: cost?.breakEvenCalls ?? null,
  };
}

/**
 * The server with both tools, writing to and reading from the proxy's state folder. `estimate`:
 * where compact_context finds the session's transcript to say whether the compaction pays.
 */
export function createMcpServer(stateDir: string, agentSession: string | null = agentSessionOfEnv(process.env), estimate?: EstimateInputs): McpServer {
  const server = new McpServer({ name: MCP_SERVER_NAME, version });
  server.registerTool(
    TOOL_NAMES.compact,
    {
      title: 'Compact context',
      description:
        'Ask Context Lens to compact this conversation at a task boundary: superseded tool outputs become stubs, old outputs are cleared or truncated (nothing you wrote is summarised). ' +
        'It applies to your next request through the Context Lens proxy; this call itself changes nothing. Stubbed outputs can be brought back with the recall tool.',
      inputSchema: {
        reason: z.string().max(2_000).describe('Why now (e.g. "finished the refactor, starting the tests").'),
        focus: z.string().max(2_000).default('').describe('What must stay verbatim (e.g. "the auth module").'),
      },
      outputSchema: compactOutput,
    },
    async ({ reason, focus }) => {
      const session = await sessionOfCall(agentSession, stateDir);
      if (!session.ok) return reply(session.error, true);
      const written = writeCompactionRequest(requestsDir(stateDir), { reason, focus, session: session.value });
      if (!written.ok) return reply(written.error, true);
      const figures: Result<CompactEstimate, string> =
        estimate === undefined
          ? { ok: false, error: 'no session to read' }
          : await estimateCompaction(estimate, session.value, focus).catch((error: unknown) => ({
              ok: false as const,
              error: error instanceof Error ? error.message : String(error),
            }));
      const costText = estimateSentence(figures);
      const message = `Compaction requested (${written.value.id}). This tool changed nothing by itself: the Context Lens proxy applies it to your next request, if the agent runs through it (ctxlens run, or the editor's Live Proxy). Stubs it writes name a ctx-lens ref you can pass to recall. ${costText}`;
      return { ...reply(message), structuredContent: { message, requestId: written.value.id, cost: costOutput(figures), costText } };
    },
  );
  server.registerTool(
    TOOL_NAMES.recall,
    {
      title: 'Recall archived output',
      description:
        'Return the full tool output that a Context Lens stub replaced. Pass the ref the stub names (ctx-lens:<16 hex digits>). Secrets in it are masked.',
      inputSchema: { ref: z.string().max(100).describe('The ref from the stub, e.g. ctx-lens:0123456789abcdef') },
    },
    async ({ ref }) => {
      const session = await sessionOfCall(agentSession, stateDir);
      if (!session.ok) return reply(session.error, true);
      // Only this session's archive: a ref from another conversation finds nothing.
      const recalled = recallOriginal(sessionRecallDir(recallDir(stateDir), session.value), ref);
      return recalled.ok ? reply(recalled.value) : reply(recalled.error, true);
    },
  );
  return server;
}
