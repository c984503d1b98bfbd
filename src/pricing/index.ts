// Public surface of pricing: what a model's tokens cost (the bundled tables, a person's overrides),
// per call, per item of the live context and per file, the break-even of a compaction, and where the
// gauge's marks sit. Pure, like the engine, but no part of compaction: the engine never prices.
export { breakEven, type BreakEven } from './breakEven';
export { BUNDLED_PRICES, withBroaderSource } from './bundledPrices';
export { costByResource, type ResourceGroup, type ResourceItem } from './byResource';
export { callRates, costOfCall, costWithRates, promptOf, ratesOf, type CallCost, type CallRates, type CallUsage, type PricedCallInput } from './callCost';
export { itemCosts, type CostedItem, type ItemCosts, type LiveCallInput } from './itemCost';
export {
  canonicalName,
  findModel,
  indexPrices,
  indexWithOverrides,
  mergePrices,
  parsePriceOverrides,
  periodAt,
  type ModelPrices,
  type PriceIndex,
  type PriceOverrides,
  type PricePeriod,
  type PriceTable,
  type TokenPrices,
} from './prices';
export { asHit, cacheHealth, cacheSentence, missSentence, type CacheHealth, type CacheMiss } from './cache/cacheHealth';
export {
  FIVE_MINUTES,
  MISS_CAUSES,
  ONE_HOUR,
  findMisses,
  type CacheBoundary,
  type CacheCall,
  type CacheHealthOptions,
  type FoundMiss,
  type FoundMisses,
  type MissCause,
} from './cache/misses';
export { sessionCost, type ModelCost, type SessionCost } from './sessionCost';
export {
  AGENT_MARGIN_PERCENT,
  checkTriggerSettings,
  effectiveTrigger,
  type CheckedSettings,
  type EffectiveTrigger,
  type TriggerSettings,
} from './triggerPoints';
