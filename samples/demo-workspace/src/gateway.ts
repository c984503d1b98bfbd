import { HttpError } from './retry';

/** Talks to the card gateway. Stubbed: the real client lives in another repository. */
export async function chargeCard(cardToken: string, amountCents: number): Promise<string> {
  if (!cardToken.startsWith('tok_')) throw new HttpError(404);
  return `ch_${cardToken.slice(4)}_${amountCents}`;
}
