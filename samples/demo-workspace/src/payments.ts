import { chargeCard as gatewayCharge } from './gateway';
import { withRetry } from './retry';

export interface Charge {
  cardToken: string;
  amountCents: number;
}

/** Charges a card, retrying transient gateway failures. Public API: keep the signature. */
export function chargeCard(charge: Charge): Promise<string> {
  return withRetry(() => gatewayCharge(charge.cardToken, charge.amountCents), { retries: 3, baseDelayMs: 200 });
}
