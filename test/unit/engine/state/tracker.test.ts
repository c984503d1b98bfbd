import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { claimOf, sameTopic, statusOf } from '../../../../src/engine/state/statement';
import { resolutionOf, staleAgainst, trackState } from '../../../../src/engine/state/tracker';
import { assistant, build, user } from '../support/build';

/** A conversation's items (system prompt left out), ids from 1. */
const itemsOf = (...messages: Parameters<typeof build>[0]) => build(messages).items.filter((item) => item.kind !== 'system');

describe('statusOf', () => {
  const cases: [string, ReturnType<typeof statusOf>][] = [
    ['TODO: exponential backoff with jitter.', 'open'],
    ['Backoff still linear: not fixed yet.', 'open'],
    ['The cache invalidation is not implemented yet.', 'open'],
    ["The Windows path handling hasn't been addressed.", 'open'],
    ['Open question: take the retry budget from config?', 'open'],
    ['We have yet to wire the metrics exporter.', 'open'],
    ['The backoff is now exponential with jitter.', 'done'],
    ['The parser now uses a streaming reader.', 'done'],
    ['Fixed the off-by-one in the pagination loop.', 'done'],
    ['The migration is done.', 'done'],
    ['PR #412 merged into main.', 'done'],
    ['The adapter no longer retries on its own.', 'done'],
    ['Switched the logger to pino.', 'done'],
    ['All 240 cases pass.', 'passed'],
    ['The lint step no longer fails on generated files.', 'passed'],
    ['The suite still passes after the rename.', 'passed'],
    ['It fails: all of them JPY amounts.', 'failed'],
    ['The build is broken on Node 18.', 'failed'],
    ['I reverted the cache change: it doubled memory.', 'reverted'],
    ['Rolled back the schema migration.', 'reverted'],
    // Intentions and questions are not state.
    ["I'll fix the pagination loop next.", undefined],
    ['Let me look at the formatter.', undefined],
    ['Reading the provider rules.', undefined],
  ];
  for (const [sentence, status] of cases) it(`${JSON.stringify(sentence)} → ${status ?? 'no status'}`, () => assert.equal(statusOf(sentence), status));
});

describe('sameTopic', () => {
  it('matches by subject ("the backoff … linear" / "the backoff is now exponential") and by most of the topic', () => {
    assert.ok(sameTopic(claimOf('Backoff still linear: not fixed yet.'), claimOf('The backoff is now exponential with jitter.')));
    assert.ok(sameTopic(claimOf('TODO: exponential backoff with jitter.'), claimOf('The delay is now an exponential backoff, with jitter on top.')));
    assert.ok(sameTopic(claimOf('TODO: migrate src/db/schema.ts to the new client'), claimOf('Migrated src/db/schema.ts to the new client; done.')));
  });
  it('does not match on one shared word, nor a different subject', () => {
    assert.ok(!sameTopic(claimOf('TODO: exponential backoff with jitter.'), claimOf('The backoff constant is fixed.')));
    assert.ok(!sameTopic(claimOf('The cache layer is still broken.'), claimOf('The auth layer is now fixed.')));
    assert.ok(!sameTopic(claimOf('Tests fail.'), claimOf('Tests pass.')), 'no topic: which tests is not known');
  });
});

describe('trackState', () => {
  it('reports a TODO done where a later item completes it, with that item', () => {
    const items = itemsOf(
      user('Add jitter to the retry backoff.'),
      assistant('TODO: exponential backoff with jitter.'),
      user('Go on.'),
      assistant('The backoff is now exponential with jitter. Tests pass.'),
    );
    const tracker = trackState(items);
    const done = resolutionOf(tracker, 'TODO: exponential backoff with jitter.', -1);
    assert.equal(done?.how, 'done');
    assert.equal(done?.itemId, items.at(-1)?.id);
    assert.match(done?.text ?? '', /now exponential/);
    // Only words after the line's own item count.
    assert.equal(resolutionOf(tracker, 'TODO: exponential backoff with jitter.', items.at(-1)?.id ?? 0), undefined);
  });

  it('takes the latest word: a fix later reverted is open again, a revert later redone is done', () => {
    const items = itemsOf(
      assistant('Fixed the session cache eviction.'),
      user('That broke staging. Revert the session cache eviction fix.'),
      assistant('Reverted the session cache eviction change.'),
    );
    const tracker = trackState(items);
    assert.equal(tracker.latest('The session cache eviction is fixed.', -1)?.status, 'reverted');
    assert.equal(staleAgainst(tracker, 'The session cache eviction is fixed.', items[0]?.id ?? 0, false)?.status, 'reverted');
    const redone = trackState([
      ...items,
      ...itemsOf(assistant('x'), assistant('The session cache eviction now uses an LRU and is merged.')).map((item) => ({ ...item, id: item.id + 100 })),
    ]);
    assert.equal(redone.closedBy('TODO: session cache eviction', -1)?.status, 'done');
  });

  it('a plain fact restated later with its value changed ("now") is superseded; one merely added to is not', () => {
    const items = itemsOf(
      assistant('The parser uses a regex tokenizer.'),
      user('ok'),
      assistant('The parser now uses a streaming reader.'),
      assistant('The parser now handles CRLF line ends.'),
    );
    const tracker = trackState(items);
    const first = items[0]?.id ?? 0;
    assert.match(staleAgainst(tracker, 'The parser uses a regex tokenizer.', first, false)?.text ?? '', /streaming reader/);
    assert.equal(staleAgainst(tracker, 'The parser is defined in src/parser.ts.', first, false), undefined);
    assert.equal(staleAgainst(tracker, 'The lexer uses a regex tokenizer.', first, false), undefined);
  });

  it('a person cannot close a loop by saying so, only ask or take back', () => {
    const tracker = trackState(itemsOf(assistant('TODO: rotate the signing keys.'), user('The signing keys rotation is done, right?')));
    assert.equal(tracker.closedBy('TODO: rotate the signing keys.', -1), undefined);
  });

  it('a question the person asked is answered by the reply before their next message that speaks of it', () => {
    const items = itemsOf(
      user('What is still open?'),
      assistant('Still open: the retry budget from config/prod.yaml, and the soft-decline question.'),
      user('Which Node versions do we support?'),
      assistant('Looking at the formatter first.'),
      user('OK.'),
    );
    const tracker = trackState(items);
    const [asked, , unanswered] = items;
    assert.equal(resolutionOf(tracker, 'What is still open?', -1, asked?.id)?.how, 'answered');
    assert.equal(resolutionOf(tracker, 'Which Node versions do we support?', -1, unanswered?.id), undefined, 'a reply on something else does not answer it');
    // Not the person's question: only a later word closes it.
    assert.equal(resolutionOf(tracker, 'What is still open?', -1), undefined);
  });
});
