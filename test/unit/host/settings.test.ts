import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_OPTIONS, resolveOptions } from '../../../src/engine';
import { engineOptionsOf } from '../../../src/host/engineOptions';
import { SETTING_DEFAULTS } from '../../../src/host/settingDefaults';

describe('settings → engine options', () => {
  it('resolves to exactly the engine defaults when every setting is at its default', () => {
    assert.deepEqual(resolveOptions(engineOptionsOf(SETTING_DEFAULTS, DEFAULT_OPTIONS.targetPercent)), DEFAULT_OPTIONS);
  });

  it('sets every engine knob, so none is stuck at its default: only the per-run options are left out', () => {
    // Choices are the person's, per session (the map), and so is an edited summary: never a setting.
    const {
      trigger: _trigger,
      explicitTarget: _explicitTarget,
      focus: _focus,
      targetTokens: _targetTokens,
      choices: _choices,
      summaryOverride: _summaryOverride,
      ...knobs
    } = DEFAULT_OPTIONS;
    assert.deepEqual(engineOptionsOf(SETTING_DEFAULTS, DEFAULT_OPTIONS.targetPercent), knobs);
  });

  it('maps each knob to its engine option', () => {
    const options = resolveOptions(
      engineOptionsOf(
        {
          ...SETTING_DEFAULTS,
          'compaction.minSavingsPercent': 25,
          'summarizer.timeoutSeconds': 30,
          'preserve.pinnedConstraints': ['never touch prod', '  '],
          'preserve.taskComplexity': 'epic',
          'supersede.deniedCategories': ['search'],
          'ageClear.excludeTools': ['TodoWrite'],
          'truncate.capTokens.search': 300,
          'truncate.mode.command_execution': 'head+tail',
          'truncate.dedupe': false,
          'supersede.writesSupersedeReads': false,
          'preserve.epistemicBudgetPercent': 5,
          'summary.maxTokens': 900,
          'summary.framePrefix': 'Reference only.',
        },
        40,
      ),
    );
    assert.equal(options.targetPercent, 40);
    assert.equal(options.minSavingsPercent, 25);
    assert.equal(options.timeoutMs, 30_000);
    assert.deepEqual(options.preserve.pinned, ['never touch prod']);
    assert.equal(options.preserve.taskComplexity, 'epic');
    assert.deepEqual(options.supersede.deniedCategories, ['search']);
    assert.deepEqual(options.ageClear.excludeTools, ['TodoWrite']);
    assert.deepEqual(options.truncate.perCategory.search, { mode: 'head', capTokens: 300 });
    assert.deepEqual(options.truncate.perCategory.command_execution, {
      mode: 'head+tail',
      capTokens: DEFAULT_OPTIONS.truncate.perCategory.command_execution.capTokens,
    });
    assert.equal(options.truncate.dedupe, false);
    assert.equal(options.supersede.writesSupersedeReads, false);
    assert.equal(options.preserve.epistemicBudgetPercent, 5);
    assert.equal(options.summary.maxTokens, 900);
    assert.equal(options.summary.antiInjectionPrefix, 'Reference only.');
  });
});
