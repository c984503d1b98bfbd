// Live follow of one Gemini CLI chat (see common/appendFollower.ts for the reading, watching and
// reporting). The CLI appends lines, and its patches (`$set`, `$rewindTo`, a message id written
// again) change earlier messages, so the whole live history is kept and fed what is appended.
// It also writes files whole: a resume that finds the file unreadable rewrites it (a new file, so a
// new inode: read again), and the CLIs before 0.3x rewrote their one-object `.json` chat on every
// message. A rewrite that keeps the inode is caught by the first line: when it changed, or the
// file is a legacy one, the file is read again whole instead of its new bytes being parsed as lines.
import { AppendFollower, type AppendFollowerOptions, type FollowState, type FullRead } from '../common/appendFollower';
import { LineSplitter, readRange } from '../common/lines';
import { ok, withFile } from '../result';
import type { CompactionEvent, FillSnapshot, Result } from '../types';
import { readChat, type ChatRead, type ChatState } from './chatState';
import type { GeminiFillOptions } from './fill';
import { ChatLineParser } from './parser';

export interface GeminiFollowerOptions extends GeminiFillOptions, AppendFollowerOptions {}

/** The first line (up to this much) is compared before each append is read. */
const HEAD_CHECK_BYTES = 4096;

interface ChatFollowState extends FollowState {
  chat: ChatState;
  legacy: boolean;
  /** The file's first bytes when it was read whole: if they change, it was rewritten. */
  head: Buffer;
}

export class GeminiSessionFollower extends AppendFollower<ChatFollowState> {
  constructor(
    path: string,
    private readonly options: GeminiFollowerOptions = {},
  ) {
    super(path, options, 'Chat');
  }

  protected async readAll(ino: number): Promise<Result<FullRead<ChatFollowState>>> {
    const read = await this.readWhole();
    if (!read.ok) return read;
    const { chat, diagnostics } = read.value;
    return ok({ state: { ...read.value.position, chat, ino, fill: chat.fill(this.options) }, diagnostics });
  }

  private async readWhole(): Promise<
    Result<{ chat: ChatState; diagnostics: ChatRead['diagnostics']; position: Pick<ChatFollowState, 'splitter' | 'legacy' | 'head'> }>
  > {
    const read = await readChat(this.path, true);
    if (!read.ok) return read;
    const head = await withFile(this.path, async (handle) => ok(await readRange(handle, 0, Math.min(HEAD_CHECK_BYTES, read.value.resumeOffset))));
    if (!head.ok) return head;
    const { state, diagnostics, resumeOffset, nextLine, legacy } = read.value;
    return ok({ chat: state, diagnostics, position: { splitter: new LineSplitter(resumeOffset, nextLine), legacy, head: head.value } });
  }

  protected async consume(state: ChatFollowState, chunk: Buffer): Promise<{ changed: boolean; newRefs: string[] }> {
    if (state.legacy || !(await this.sameHead(state))) return this.rereadInto(state);
    const parser = new ChatLineParser(this.path);
    const newRefs: string[] = [];
    let changed = false;
    state.splitter.push(chunk, (bytes, line, offset, end) => {
      const located = parser.parse(bytes, line, offset, end);
      if (located === null) return;
      const observed = state.chat.observe(located);
      changed ||= observed.changed;
      if (observed.ref !== null) newRefs.push(observed.ref);
      for (const event of observed.compactions) this.emit('compacted', event);
    });
    for (const diagnostic of parser.diagnostics()) this.emit('diagnostic', diagnostic);
    return { changed, newRefs };
  }

  private async sameHead(state: ChatFollowState): Promise<boolean> {
    const now = await withFile(this.path, async (handle) => ok(await readRange(handle, 0, state.head.length)));
    return now.ok && now.value.equals(state.head);
  }

  /** The file was written whole: read it again, announcing only compactions not seen before. */
  private async rereadInto(state: ChatFollowState): Promise<{ changed: boolean; newRefs: string[] }> {
    const read = await this.readWhole();
    if (!read.ok) return { changed: false, newRefs: [] };
    const known = new Set(state.chat.compactions.all().map((event: CompactionEvent) => event.uuid));
    Object.assign(state, read.value.position, { chat: read.value.chat });
    if (!state.legacy)
      this.emit('diagnostic', { severity: 'info', code: 'file-rewritten', message: 'Chat was rewritten in place; reading it again', path: this.path });
    for (const event of read.value.chat.compactions.all()) if (!known.has(event.uuid)) this.emit('compacted', event);
    return { changed: true, newRefs: [] };
  }

  protected snapshot(state: ChatFollowState): FillSnapshot {
    return state.chat.fill(this.options);
  }
}
