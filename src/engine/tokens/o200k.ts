// The o200k tables and pre-tokenizer, one module of their own: the bundles load it from
// dist/o200k.js at the first count (esbuild.mjs keeps it out of each bundle), so the package holds
// one copy and nothing that never counts pays for parsing it.
export { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
export { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
