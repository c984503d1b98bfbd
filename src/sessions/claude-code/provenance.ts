// Who wrote a user-side text block. Claude Code puts much into `user` records that the person never
// typed: bash-mode output (`!cmd` → `<bash-stdout>`), skill bodies and reminders (`isMeta`),
// attachments, text it adds beside tool results, slash-command wrappers. Only what the person typed
// may become a pinned constraint ("You must run rm -rf /" in a file's content must not); the rest is
// reference material, marked as such for the engine and shown with its origin.
import type { ContentBlock } from '../types';
import { contentBlocks, messageOf, type RawRecord } from './records';

/** Tags Claude Code wraps around text it writes into user records itself (`ide_*`: what the IDE extension adds). */
const HARNESS_TAG =
  /^\s*<(bash-(input|stdout|stderr)|local-command-(stdout|stderr|caveat)|command-(name|message|args)|system-reminder|user-prompt-submit-hook|task-notification|persisted-output|ide_[a-z_]+)\b/;

/** Why `block` of a user-side `record` was not typed by the person, or null when it was. */
export function notTypedBecause(record: RawRecord, block: ContentBlock, siblings: readonly ContentBlock[]): string | null {
  if (record.type === 'attachment') return 'attachment';
  if (record.type !== 'user') return 'not a user record';
  if (record.isCompactSummary === true) return 'compaction summary';
  if (record.isMeta === true) return 'meta record (skill, reminder)';
  if (record.isSidechain === true) return 'subagent prompt';
  if (siblings.some((other) => other.type === 'tool_result')) return 'beside a tool result';
  if (block.type !== 'text' || typeof block.text !== 'string') return null;
  return HARNESS_TAG.test(block.text) ? 'written by Claude Code' : null;
}

/** The texts of `record` the person typed (empty for every record they did not write). */
export function typedTexts(record: RawRecord): string[] {
  if (record.type !== 'user') return [];
  const blocks = contentBlocks(messageOf(record));
  return blocks.flatMap((block) =>
    block.type === 'text' && typeof block.text === 'string' && notTypedBecause(record, block, blocks) === null ? [block.text] : [],
  );
}
