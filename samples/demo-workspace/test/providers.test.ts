import assert from 'node:assert/strict';
import test from 'node:test';
import { formatAmount, ZERO_DECIMAL } from '../src/format';

const PROVIDERS = ["stripe","adyen","braintree","checkout","mollie","paypal","square","worldpay"];
const CURRENCIES = ["EUR","USD","GBP","CHF","SEK","JPY"];
const AMOUNTS = [1, 99, 100, 1999, 250000];

for (const provider of PROVIDERS) {
  test(`${provider}: amounts`, async (t) => {
    for (const currency of CURRENCIES) {
      for (const cents of AMOUNTS) {
        await t.test(`${provider} formats ${cents} ${currency}`, () => {
          const expected = ZERO_DECIMAL.has(currency) ? String(cents) : (cents / 100).toFixed(2);
          assert.equal(formatAmount(cents, currency), expected);
        });
      }
    }
  });
}
