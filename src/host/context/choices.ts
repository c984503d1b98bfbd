// The person's choices for one session (keep / drop items, pinned sentences): how an action changes
// them, how they reach the engine, and where they are kept (the workspace state, per session, until
// the next Apply). Free of `vscode` so it is unit-tested with plain node.
import type { EngineOptionsInput } from '../../engine';
import { choicesSchema, type ChoiceAction, type Choices } from '../../protocol/messages';

export const NO_CHOICES: Choices = { keep: [], drop: [], pins: [] };

export function hasChoices(choices: Choices): boolean {
  return choices.keep.length + choices.drop.length + choices.pins.length > 0;
}

const without = (ids: readonly number[], id: number): number[] => ids.filter((other) => other !== id);
const sorted = (ids: readonly number[]): number[] => [...new Set(ids)].sort((a, b) => a - b);

/** Keep and drop exclude each other on one item: the newest call wins. */
export function applyChoice(choices: Choices, action: ChoiceAction): Choices {
  switch (action.kind) {
    case 'keep':
      return { ...choices, keep: sorted([...choices.keep, action.id]), drop: without(choices.drop, action.id) };
    case 'drop':
      return { ...choices, drop: sorted([...choices.drop, action.id]), keep: without(choices.keep, action.id) };
    case 'undo':
      return { ...choices, keep: without(choices.keep, action.id), drop: without(choices.drop, action.id) };
    case 'pin': {
      const text = action.text.replace(/\s+/g, ' ').trim();
      return choices.pins.includes(text) ? choices : { ...choices, pins: [...choices.pins, text].slice(-100) };
    }
    case 'unpin':
      return { ...choices, pins: choices.pins.filter((pin) => pin !== action.text) };
    case 'clearAll':
      return NO_CHOICES;
  }
}

/** The engine options with the choices in: ids as `choices`, pinned sentences beside the settings' constraints. */
export function withChoices(engine: EngineOptionsInput, choices: Choices): EngineOptionsInput {
  if (!hasChoices(choices)) return engine;
  const pinned = [...(engine.preserve?.pinned ?? []), ...choices.pins.filter((pin) => !(engine.preserve?.pinned ?? []).includes(pin))];
  return { ...engine, choices: { keep: choices.keep, drop: choices.drop }, preserve: { ...engine.preserve, pinned } };
}

/** The part of `vscode.Memento` the store needs. */
export interface StateStorage {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

const KEY_PREFIX = 'contextLens.choices:';

/** Choices by session file; what the workspace state holds is validated, never trusted. */
export class ChoiceStore {
  constructor(private readonly storage: StateStorage) {}

  get(sessionPath: string): Choices {
    const parsed = choicesSchema.safeParse(this.storage.get(KEY_PREFIX + sessionPath));
    return parsed.success ? parsed.data : NO_CHOICES;
  }

  async set(sessionPath: string, choices: Choices): Promise<void> {
    await this.storage.update(KEY_PREFIX + sessionPath, hasChoices(choices) ? choices : undefined);
  }
}
