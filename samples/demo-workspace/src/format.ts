const ZERO_DECIMAL = new Set(['JPY', 'KRW', 'VND']);

/** Minor units (cents) as the decimal string providers expect. */
export function formatAmount(amountCents: number, currency: string): string {
  return ZERO_DECIMAL.has(currency) ? String(amountCents) : (amountCents / 100).toFixed(2);
}

export { ZERO_DECIMAL };
