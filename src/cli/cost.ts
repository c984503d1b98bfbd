// The price table for `inspect` and `compact`: the bundled prices with the person's own merged over
// them (`--prices FILE` or CONTEXT_LENS_PRICES). What a session cost is sessions/costReport.ts.
import { BUNDLED_PRICES, indexPrices, indexWithOverrides, type PriceIndex } from '../pricing';
import { READ_CAPS, readRegularText, withoutBom } from '../sessions/common/regularFile';
import { inputError, type Io } from './io';

export const PRICES_OPTION = { prices: { type: 'string' } } as const;

export const PRICES_USAGE = `--prices FILE     your own prices, merged over the bundled table (also CONTEXT_LENS_PRICES=FILE):
                    {"model-name": {"input": 3, "output": 15, "cacheWrite": 3.75, "cacheWrite1h": 6, "cacheRead": 0.3}}
                    in US dollars per million tokens; a name given replaces the bundled model of that name`;

/** The price table to use: the bundled one, with the person's file merged over it when one is named. */
export async function loadPrices(file: string | undefined, io: Io): Promise<PriceIndex> {
  const path = file ?? io.env.CONTEXT_LENS_PRICES;
  if (path === undefined || path === '') return indexPrices(BUNDLED_PRICES);
  const read = await readRegularText(path, READ_CAPS.prices);
  if (!read.ok) throw inputError(`--prices ${path}: ${read.error.message}`);
  if (read.value === null) throw inputError(`--prices ${path}: No such file: ${path}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(withoutBom(read.value));
  } catch (error) {
    throw inputError(`--prices ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const priced = indexWithOverrides(BUNDLED_PRICES, parsed);
  if (!priced.ok) throw inputError(`--prices ${path}: ${priced.error}`);
  return priced.value;
}
