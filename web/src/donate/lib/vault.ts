import { cleanNumber } from './brand';
import { parseExpiry } from './expiry';
import type { CardInput } from './card';

/**
 * The card vault's tokeniser (POST {vault_url}/cvault/credit-card/temporal with the platform's key): when a global
 * processor retries the campaign's declined charges, the card is tokenised here as well as at the organisation's
 * gateway, straight from the browser — the number and security code never reach Aporta. Loaded only for such forms.
 * Resolves with the token, or null when the vault refused or did not answer: the donation goes on without a retry.
 */
export async function vaultToken(
  vault: { url: string; key: string }, country: string, card: CardInput, fetcher: typeof fetch = fetch,
): Promise<string | null> {
  const exp = parseExpiry(card.expiry);
  if (!exp) return null;
  try {
    const res = await fetcher(`${vault.url.replace(/\/$/, '')}/cvault/credit-card/temporal`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      credentials: 'omit',
      body: JSON.stringify({
        country_code: country, holder_name: card.holderName.trim(), key: vault.key, pan: cleanNumber(card.number),
        expiration_month: exp.month, expiration_year: exp.year, cvv: card.cvv.trim(),
      }),
    });
    const body = (await res.json().catch(() => ({}))) as { token?: unknown };
    return res.ok && typeof body.token === 'string' && body.token ? body.token : null;
  } catch {
    return null;
  }
}
