// One contract subject per registered agent, by its id: the suite fails for an agent without one.
import { claudeCodeSubject } from './claudeCode';
import { codexSubject } from './codex';
import { geminiSubject } from './gemini';
import { opencodeSubject } from './opencode';
import type { ContractSubject } from './subject';

export const CONTRACT_SUBJECTS: Readonly<Record<string, ContractSubject>> = {
  'claude-code': claudeCodeSubject,
  codex: codexSubject,
  gemini: geminiSubject,
  opencode: opencodeSubject,
};
