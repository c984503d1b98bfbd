export interface ChargeRequest {
  cardToken: string;
  amount: string;
  currency: string;
  idempotencyKey: string;
}

export interface ChargeResult {
  id: string;
  status: 'succeeded' | 'pending';
}

export interface Decline {
  reason: string;
  action: string;
  /** A soft decline may succeed later; a hard one never will. */
  soft: boolean;
}

export class ProviderError extends Error {
  constructor(readonly status: number, readonly decline: Decline | null) {
    super(`provider answered HTTP ${status}${decline ? `: ${decline.reason}` : ''}`);
  }
}
