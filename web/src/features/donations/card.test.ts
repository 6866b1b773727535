import { describe, expect, it, vi } from 'vitest';
import { checkCard, paymentMethodPayload, tokenizeCard, type CardValues } from './card';

const ok: CardValues = { number: '4509 9535 6623 3704', expiry: '11 / 30', cvv: '123', holder: 'APRO', idType: 'DNI', idNumber: '30.123.456' };
const now = new Date('2026-11-22T10:00:00Z');

describe('change card', () => {
  it('accepts a valid card and flags each problem', () => {
    expect(checkCard(ok, undefined, now)).toEqual({});
    expect(checkCard({ ...ok, number: '4509 9535 6623 3705', expiry: '01 / 20', cvv: '12', holder: ' ', idNumber: '' }, undefined, now)).toEqual({
      number: 'invalid', expiry: 'expired', cvv: 'invalid', holder: 'required', idNumber: 'required',
    });
  });
  it("checks cards by the account's brands, as the public form does", () => {
    // An account that takes only Visa Débito and Naranja (no Luhn digit): a credit Visa is not its brand.
    const rules = [
      { id: 'debvisa', name: 'Visa Débito', payment_type: 'debit_card', bin_pattern: '^(400276)', exclusion_pattern: '', lengths: [16], security_code_length: 3, luhn: true },
      { id: 'naranja', name: 'Naranja', payment_type: 'credit_card', bin_pattern: '^(589562)', exclusion_pattern: '', lengths: [16], security_code_length: 3, luhn: false },
    ];
    expect(checkCard(ok, rules, now)).toEqual({ number: 'type' });
    expect(checkCard({ ...ok, number: '5895 6200 0000 0001' }, rules, now)).toEqual({});
    const debit = { ...ok, number: '4002 7686 9439 5619' };
    expect(checkCard(debit, rules, now)).toEqual({});
    const p = paymentMethodPayload(debit, { id: 'tok_2', payment_method_id: 'debvisa' }, { name: 'centralpos', payment_methods: rules });
    expect(p).toMatchObject({ method_id: 'debvisa', gateway: { name: 'centralpos', token: 'tok_2' } });
  });
  it('tokenises at CentralPos with its own API', async () => {
    const good = vi.fn(async () => new Response(JSON.stringify({ id: 'tok_cp', card: { brand: 'mastercard', funding: 'debit' } }), { status: 201 }));
    const gateway = { name: 'centralpos', tokenizer_url: 'https://cp.example/v1/', public_key: 'pk_test_1' };
    await expect(tokenizeCard(ok, gateway, good as unknown as typeof fetch)).resolves.toEqual({ id: 'tok_cp', payment_method_id: 'debmaster' });
    const [url, init] = good.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('https://cp.example/v1/tokens');
    expect((init.headers as Record<string, string>)['X-Publishable-Key']).toBe('pk_test_1');
    expect(JSON.parse(init.body as string)).toMatchObject({ number: '4509953566233704', cvc: '123', exp_month: 11, exp_year: 2030, holder: { name: 'APRO' } });
    const bad = vi.fn(async () => new Response(JSON.stringify({ error: { code: 'invalid_cvc', message: 'bad cvc', param: 'cvc' } }), { status: 422 }));
    await expect(tokenizeCard(ok, gateway, bad as unknown as typeof fetch)).rejects.toThrow();
  });
  it("tokenises at the card vault too when the checkout names it (a global processor retries the campaign's declines)", async () => {
    const calls: string[] = [];
    const fetcher = vi.fn(async (url: RequestInfo | URL) => {
      calls.push(String(url));
      return String(url).includes('/cvault/')
        ? new Response(JSON.stringify({ token: 'vault_tok_1' }), { status: 201 })
        : new Response(JSON.stringify({ id: 'tok_mp' }), { status: 201 });
    });
    const gateway = { name: 'mercadopago', tokenizer_url: 'https://tokenizer.example', public_key: 'pk',
      vault: { url: 'https://vault.example/', key: 'vk_1', country: 'AR' } };
    const token = await tokenizeCard(ok, gateway, fetcher as unknown as typeof fetch);
    expect(token).toEqual({ id: 'tok_mp', vault_token: 'vault_tok_1' });
    expect(calls.sort()).toEqual(['https://tokenizer.example/v1/card_tokens?public_key=pk', 'https://vault.example/cvault/credit-card/temporal']);
    const vaultBody = JSON.parse((fetcher.mock.calls as unknown as [string, RequestInit][]).find(([u]) => u.includes('/cvault/'))![1].body as string);
    expect(vaultBody).toMatchObject({ country_code: 'AR', key: 'vk_1', holder_name: 'APRO' });
    expect(paymentMethodPayload(ok, token, gateway).gateway).toEqual({ name: 'mercadopago', token: 'tok_mp', payment_method_id: undefined, vault_token: 'vault_tok_1' });
    // Without a vault the card goes to the gateway only; a vault that does not answer leaves the change without a retry card.
    calls.length = 0;
    await expect(tokenizeCard(ok, { ...gateway, vault: null }, fetcher as unknown as typeof fetch)).resolves.toEqual({ id: 'tok_mp' });
    expect(calls).toEqual(['https://tokenizer.example/v1/card_tokens?public_key=pk']);
    const down = vi.fn(async (url: RequestInfo | URL) => {
      if (String(url).includes('/cvault/')) throw new TypeError('network');
      return new Response(JSON.stringify({ id: 'tok_mp' }), { status: 201 });
    });
    await expect(tokenizeCard(ok, gateway, down as unknown as typeof fetch)).resolves.toEqual({ id: 'tok_mp' });
  });
  it('builds a payload without the number or the security code', () => {
    const p = paymentMethodPayload(ok, { id: 'tok_1', payment_method_id: 'visa' });
    expect(p).toMatchObject({ method_id: 'visa', bin: '450995', last_four: '3704', expiration_month: 11, expiration_year: 2030, cardholder_id_number: '30123456', gateway: { token: 'tok_1' } });
    const json = JSON.stringify(p);
    expect(json).not.toContain('4509953566233704');
    expect(json).not.toContain('"123"');
  });
  it('tokenises at the gateway and surfaces its message on failure', async () => {
    const good = vi.fn(async () => new Response(JSON.stringify({ id: 'tok_9' }), { status: 201 }));
    const gateway = { tokenizer_url: 'https://tokenizer.example/', public_key: 'TEST-pk' };
    await expect(tokenizeCard(ok, gateway, good as unknown as typeof fetch)).resolves.toEqual({ id: 'tok_9' });
    const [url, init] = good.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('https://tokenizer.example/v1/card_tokens?public_key=TEST-pk');
    const body = JSON.parse(init.body as string);
    expect(body).toMatchObject({ card_number: '4509953566233704', security_code: '123', expiration_year: 2030 });
    const bad = vi.fn(async () => new Response(JSON.stringify({ message: 'card rejected' }), { status: 400 }));
    await expect(tokenizeCard(ok, gateway, bad as unknown as typeof fetch)).rejects.toThrow('card rejected');
    await expect(tokenizeCard(ok, { tokenizer_url: '', public_key: '' }, good as unknown as typeof fetch)).rejects.toThrow('tokenize_failed');
  });
});
