// One contract subject per registered agent, by its id: the suite fails for an agent without one.
import { claudeCodeSubject } from './claudeCode';
import { clineSubject } from './cline';
import { codexSubject } from './codex';
import { geminiSubject } from './gemini';
import { kiloSubject } from './kilo';
import { opencodeSubject } from './opencode';
import type { ContractSubject } from './subject';

export const CONTRACT_SUBJECTS: Readonly<Record<string, ContractSubject>> = {
  'claude-code': claudeCodeSubject,
  cline: clineSubject,
  codex: codexSubject,
  gemini: geminiSubject,
  kilo: kiloSubject,
  opencode: opencodeSubject,
};
