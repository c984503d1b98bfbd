// The phrasing corpus (test/fixtures/phrasings/rules.json): rules, requests and open loops the
// person typed in real published sessions, a held-out part written apart in other words, and
// sentences that are none of these.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Collected {
  text: string;
  role: string;
  fixture: string;
  source: string;
}

export interface Corpus {
  collected: Collected[];
  heldout: string[];
  nonRules: string[];
  revocations: { rule: string; revocation: string }[];
  /** A prohibition, a later permission, and whether it lifts it. */
  permissions: { rule: string; permission: string; lifts: boolean; source: string }[];
}

export const PHRASINGS = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'fixtures', 'phrasings', 'rules.json'), 'utf8')) as Corpus;
