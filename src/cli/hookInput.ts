// Reading what Claude Code pipes to a hook or status line command. Kept apart from `io.ts` so the
// status line bundle can use it without pulling in the session adapters.

export async function readStdin(stdin: NodeJS.ReadableStream = process.stdin): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}
