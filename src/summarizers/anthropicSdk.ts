// The Anthropic SDK behind a module of its own: importing this module (dynamically, from
// anthropic.ts) is what loads the SDK, so the bundles load it on the first summary only.
export { default as Anthropic } from '@anthropic-ai/sdk';
