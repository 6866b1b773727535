import { describe, expect, it } from 'vitest';
import { brandName, cardLayout, checkCardNumber, cleanNumber, detectBrand, formatCardNumber, luhn, validCvv, type CardRule } from './brand';
import { checkExpiry, formatExpiry, parseExpiry } from './expiry';
import { formatMoney, parseDecimal, parseTypedAmount, toDecimal } from './money';
import { fetchAmountLimits, requestCardToken } from './tokenizer';

describe('detectBrand', () => {
  it.each([
    ['4509 9535 6623 3704', 'visa'],
    ['5031 7557 3453 0604', 'mastercard'], // MercadoPago's Argentine test Mastercard (was 'maestro')
    ['5287 3383 1025 3304', 'debmaster'],
    ['5067 7667 8388 8311', 'debelo'],
    ['5474 9254 3267 0366', 'mastercard'],
    ['2221 0000 0000 0009', 'mastercard'],
    ['3711 803032 57522', 'amex'],
    ['3056 9309 0259 04', 'diners'],
    ['3841 0000 0000 0000', 'hipercard'],
    ['6011 0000 0000 0004', 'discover'],
    ['3530 1113 3330 0000', 'jcb'],
    ['6220 0000 0000 0000', 'unionpay'],
    ['5895 6200 0000 0000', 'naranja'],
    ['6042 0100 0000 0000', 'cabal'],
    ['5429 9100 0000 0000', 'oca'],
    ['2200 0000 0000 0000', 'mir'],
    ['6370 9500 0000 0000', 'hiper'],
    ['4011 7800 0000 0000', 'elo'],
    ['5067 0000 0000 0000', 'elo'],
    ['4002 7600 0000 0000', 'debvisa'],
    ['4517.6100.0000.0000', 'debvisa'],
    ['1234-5678', 'unknown'],
    ['', 'unknown'],
  ])('%s → %s', (number, brand) => {
    expect(detectBrand(number)).toBe(brand);
  });

  it('uses 8-digit prefixes (hiper 63737423)', () => {
    expect(detectBrand('63737423')).toBe('hiper');
    expect(detectBrand('63737424')).toBe('maestro');
  });

  it('strips spaces, dots and dashes', () => {
    expect(cleanNumber(' 4509-9535.6623 3704 ')).toBe('4509953566233704');
  });
});

describe('Luhn and lengths', () => {
  it('checks the Luhn digit', () => {
    expect(luhn('4509953566233704')).toBe(true);
    expect(luhn('4509953566233705')).toBe(false);
    expect(luhn('12a4')).toBe(false);
  });

  it('accepts valid numbers for each length rule', () => {
    expect(checkCardNumber('4509 9535 6623 3704')).toBeNull();
    expect(checkCardNumber('4222222222222')).toBeNull(); // visa 13
    expect(checkCardNumber('371180303257522')).toBeNull(); // amex 15
    expect(checkCardNumber('30569309025904')).toBeNull(); // diners 14
    expect(checkCardNumber('5474925432670366')).toBeNull();
  });

  it('rejects wrong lengths and Luhn failures', () => {
    expect(checkCardNumber('450995356623370')).toBe('invalid'); // visa 15
    expect(checkCardNumber('4509953566233705')).toBe('invalid');
    expect(checkCardNumber('3056930902590')).toBe('invalid'); // diners 13
    expect(checkCardNumber('')).toBe('required');
    expect(checkCardNumber('1234567812345670')).toBe('type');
  });

  it('skips Luhn for naranja, debvisa and unionpay', () => {
    expect(checkCardNumber('5895620000000001')).toBeNull();
    expect(checkCardNumber('4002760000000001')).toBeNull();
    expect(checkCardNumber('6220000000000001')).toBeNull();
    expect(luhn('5895620000000001')).toBe(false);
  });

  it('lays out known brands and resets unknown ones', () => {
    expect(cardLayout('unknown')).toMatchObject({ length: 16, groups: [], cvvLength: 3 });
    expect(cardLayout('amex')).toMatchObject({ length: 16, groups: [4, 6, 5], cvvLength: 4 });
    expect(formatCardNumber('371180303257522', cardLayout('amex'))).toBe('3711 803032 57522');
    expect(formatCardNumber('4509953566233704', cardLayout('visa'))).toBe('4509 9535 6623 3704');
    expect(formatCardNumber('4509 9535 6623', cardLayout('unknown'))).toBe('450995356623');
  });
});

describe('security code', () => {
  it('is 3 digits; amex and unknown take 3 or 4', () => {
    expect(validCvv('visa', '123')).toBe(true);
    expect(validCvv('visa', '1234')).toBe(false);
    expect(validCvv('amex', '1234')).toBe(true);
    expect(validCvv('amex', '123')).toBe(true);
    expect(validCvv('unknown', '1234')).toBe(true);
    expect(validCvv('unknown', '12')).toBe(false);
    expect(validCvv('mastercard', '12a')).toBe(false);
  });
});

describe('expiry', () => {
  const now = new Date(2026, 4, 15); // May 2026

  it('auto-formats as MM / YY within 9 characters', () => {
    expect(formatExpiry('1')).toBe('1');
    expect(formatExpiry('4')).toBe('04 / ');
    expect(formatExpiry('12')).toBe('12 / ');
    expect(formatExpiry('1229')).toBe('12 / 29');
    expect(formatExpiry('12 / 2029')).toBe('12 / 2029');
    expect(formatExpiry('12 / 20291')).toHaveLength(9);
    expect(formatExpiry('12', '12 / ')).toBe('12');
  });

  it('reads two-digit years under 70 as 20YY, others as 19YY', () => {
    expect(parseExpiry('05 / 30')).toEqual({ month: 5, year: 2030 });
    expect(parseExpiry('05/2030')).toEqual({ month: 5, year: 2030 });
    expect(parseExpiry('05 / 75')).toEqual({ month: 5, year: 1975 });
    expect(parseExpiry('13 / 30')).toBeNull();
    expect(parseExpiry('00 / 30')).toBeNull();
    expect(parseExpiry('5/30')).toBeNull();
  });

  it('must not have passed; the current month still counts', () => {
    expect(checkExpiry('05 / 26', now)).toBeNull();
    expect(checkExpiry('04 / 26', now)).toBe('expired');
    expect(checkExpiry('12 / 75', now)).toBe('expired');
    expect(checkExpiry('', now)).toBe('required');
    expect(checkExpiry('1 / 2', now)).toBe('invalid');
  });
});

describe('formatMoney (§9)', () => {
  it.each([
    ['ARS', 123456, '$ 1.234,56'],
    ['UYU', 123456, '$U 1.234,56'],
    ['BRL', 123456, 'R$ 1.234,56'],
    ['PEN', 123456, 'S/ 1.234,56'],
    ['USD', 123456, 'US$ 1,234.56'],
    ['MXN', 123456789, '$ 1,234,567.89'],
    ['CLP', 1234567, '$ 1.234.567'],
    ['COP', 50000, '$ 50.000'],
    ['EUR', 5, 'EUR 0,05'],
  ])('%s %d → %s', (currency, minor, text) => {
    expect(formatMoney(minor, currency)).toBe(text);
  });

  it('writes negatives and zero', () => {
    expect(formatMoney(-1000, 'BRL')).toBe('-R$ 10,00');
    expect(formatMoney(0, 'ARS')).toBe('$ 0,00');
  });

  it('converts decimals and typed amounts', () => {
    expect(parseDecimal('1500.5', 'ARS')).toBe(150050);
    expect(parseDecimal('1500.5', 'CLP')).toBeNull();
    expect(toDecimal(150050, 'ARS')).toBe('1500.50');
    expect(toDecimal(5, 'USD')).toBe('0.05');
    expect(toDecimal(5000, 'CLP')).toBe('5000');
    expect(parseTypedAmount('1.500,50', 'ARS')).toBe(150050);
    expect(parseTypedAmount('1.500', 'ARS')).toBe(150000);
    expect(parseTypedAmount('10.5', 'ARS')).toBe(1050);
    expect(parseTypedAmount('1,500.50', 'USD')).toBe(150050);
    expect(parseTypedAmount('5.000', 'CLP')).toBe(5000);
    expect(parseTypedAmount('abc', 'ARS')).toBeNull();
  });
});

describe('fetchAmountLimits', () => {
  const gw = { tokenizer_url: 'https://gw.example/', public_key: 'TEST-key' };
  const toMinor = (n: number) => parseDecimal(String(n), 'ARS');
  const answer = (body: unknown, status = 200) => async (url: RequestInfo | URL) => {
    expect(String(url)).toBe('https://gw.example/v1/payment_methods?public_key=TEST-key');
    return new Response(JSON.stringify(body), { status });
  };

  it('takes the widest range of the active card methods', async () => {
    const methods = [
      { payment_type_id: 'credit_card', status: 'active', min_allowed_amount: 20, max_allowed_amount: 5000.5 },
      { payment_type_id: 'debit_card', status: 'active', min_allowed_amount: 50, max_allowed_amount: 9000 },
      { payment_type_id: 'credit_card', status: 'inactive', min_allowed_amount: 1, max_allowed_amount: 99999 },
      { payment_type_id: 'ticket', status: 'active', min_allowed_amount: 1, max_allowed_amount: 99999 },
    ];
    expect(await fetchAmountLimits(gw, toMinor, answer(methods) as typeof fetch)).toEqual({ min: 2000, max: 900000 });
  });

  it('is null when the gateway fails or states no limits', async () => {
    expect(await fetchAmountLimits(gw, toMinor, answer({ message: 'boom' }, 500) as typeof fetch)).toBeNull();
    expect(await fetchAmountLimits(gw, toMinor, answer([{ payment_type_id: 'credit_card', status: 'active' }]) as typeof fetch)).toBeNull();
    expect(await fetchAmountLimits(gw, toMinor, (async () => { throw new TypeError('offline'); }) as typeof fetch)).toBeNull();
    expect(await fetchAmountLimits({}, toMinor)).toBeNull();
  });
});

// An Argentine account's card rules as the public read carries them (the sandbox's MLA payment methods, abridged).
const rule = (id: string, name: string, bin: string, exclusion = '', lengths = [16], cvv = 3, luhnCheck = true, type = 'credit_card'): CardRule =>
  ({ id, name, payment_type: type, bin_pattern: bin, exclusion_pattern: exclusion, lengths, security_code_length: cvv, luhn: luhnCheck });
const AR: CardRule[] = [
  rule('visa', 'Visa', '^4', '^(400276|400448)'),
  rule('mastercard', 'Mastercard', '^(5|(2(22[1-9]|2[3-9][0-9]|[3-6][0-9]{2}|7[01][0-9]|720)))', '^(528733|589562)'),
  rule('amex', 'American Express', '^((34)|(37))', '', [15], 4),
  rule('debvisa', 'Visa Débito', '^(400276|400448)', '', [16], 3, true, 'debit_card'),
  rule('debmaster', 'Mastercard Débito', '^(528733)', '', [16], 3, true, 'debit_card'),
  rule('naranja', 'Naranja', '^(589562)', '', [16], 3, false),
];

describe('gateway card rules', () => {
  it.each([
    ['5031 7557 3453 0604', 'mastercard', 'Mastercard'],
    ['4509 9535 6623 3704', 'visa', 'Visa'],
    ['3711 803032 57522', 'amex', 'American Express'],
    ['5287 3383 1025 3304', 'debmaster', 'Mastercard Débito'],
    ['4002 7686 9439 5619', 'debvisa', 'Visa Débito'],
    ['5895 6200 0000 0001', 'naranja', 'Naranja'],
    ['6042 0100 0000 0000', 'unknown', ''],
  ])('%s → %s', (number, brand, name) => {
    expect(detectBrand(number, AR)).toBe(brand);
    if (brand !== 'unknown') expect(brandName(brand, AR)).toBe(name);
  });

  it('takes lengths, security code and Luhn from the rules', () => {
    expect(checkCardNumber('5031755734530604', AR)).toBeNull();
    expect(checkCardNumber('5287338310253304', AR)).toBeNull();
    expect(checkCardNumber('5031755734530605', AR)).toBe('invalid'); // Luhn
    expect(checkCardNumber('5895620000000001', AR)).toBeNull(); // naranja: no Luhn
    expect(checkCardNumber('6042010000000000', AR)).toBe('type'); // cabal: not in these rules
    expect(validCvv('amex', '1234', AR)).toBe(true);
    expect(validCvv('amex', '123', AR)).toBe(false); // the gateway says 4
    expect(cardLayout('amex', AR)).toMatchObject({ length: 15, groups: [4, 6, 5], cvvLength: 4, cvvLengths: [4] });
    expect(cardLayout('debmaster', AR)).toMatchObject({ length: 16, cvvLength: 3 });
  });

  it('falls back to the static table without usable rules', () => {
    expect(detectBrand('6042 0100 0000 0000', [])).toBe('cabal');
    const unpatterned = AR.map((r) => ({ ...r, bin_pattern: '' }));
    expect(detectBrand('5031 7557 3453 0604', unpatterned)).toBe('mastercard');
    expect(validCvv('amex', '123', [])).toBe(true);
  });

  it('ignores patterns that do not compile', () => {
    expect(detectBrand('4509953566233704', [rule('visa', 'Visa', '^(4'), ...AR])).toBe('visa');
    expect(detectBrand('4509953566233704', [rule('weird', 'Weird', '^4', '(')])).toBe('visa'); // dropped; static table
  });
});

describe('requestCardToken at a dLocal-style processor', () => {
  const gw = { name: 'dlocal', tokenizer_url: 'https://pp.example/dlocal/', public_key: 'dl_pk_1' };
  const card = { number: '4509 9535 6623 3704', cvv: '123', expiry: '11 / 30', holderName: ' APRO ', idType: 'DNI', idNumber: '12.345.678' };

  it('posts the card with the public key to the processor, never to Aporta', async () => {
    const fetcher = async (url: RequestInfo | URL, init?: RequestInit) => {
      expect(String(url)).toBe('https://pp.example/dlocal/tokens');
      expect((init?.headers as Record<string, string>)['X-Public-Key']).toBe('dl_pk_1');
      expect(JSON.parse(String(init?.body))).toEqual({ card: { holder_name: 'APRO', number: '4509953566233704', cvv: '123',
        expiration_month: 11, expiration_year: 2030 } });
      return new Response(JSON.stringify({ token: 'CV-1', card: { brand: 'visa' } }), { status: 201 });
    };
    await expect(requestCardToken(gw, card, fetcher as typeof fetch)).resolves.toEqual({ id: 'CV-1', payment_method_id: 'visa' });
  });

  it("names the field the processor refused, or keeps the processor's own message", async () => {
    const refuse = (param: string) => (async () =>
      new Response(JSON.stringify({ code: 5001, message: 'Invalid card', param }), { status: 400 })) as unknown as typeof fetch;
    await expect(requestCardToken(gw, card, refuse('card.cvv'))).rejects.toEqual({ message: 'Invalid card', cause: [{ code: 'E302', description: 'Invalid card' }] });
    await expect(requestCardToken(gw, card, refuse('payer.x'))).rejects.toEqual({ message: 'Invalid card', cause: [{ code: 'payer.x', description: 'Invalid card' }] });
  });
});

describe('vaultToken (the card vault, for the processor that retries declines)', () => {
  const card = { number: '4509 9535 6623 3704', cvv: '123', expiry: '11 / 30', holderName: ' Ana Pérez ', idType: 'DNI', idNumber: '1' };
  const vault = { url: 'https://vault.example/', key: 'vk_1' };

  it('posts the card with the platform key to the vault, never to Aporta', async () => {
    const { vaultToken } = await import('./vault');
    const fetcher = async (url: RequestInfo | URL, init?: RequestInit) => {
      expect(String(url)).toBe('https://vault.example/cvault/credit-card/temporal');
      expect(init?.credentials).toBe('omit');
      expect(JSON.parse(String(init?.body))).toEqual({ country_code: 'AR', holder_name: 'Ana Pérez', key: 'vk_1',
        pan: '4509953566233704', expiration_month: 11, expiration_year: 2030, cvv: '123' });
      return new Response(JSON.stringify({ token: 'tok_1', expires_at: '2030-01-01T00:00:00Z' }), { status: 201 });
    };
    await expect(vaultToken(vault, 'AR', card, fetcher as typeof fetch)).resolves.toBe('tok_1');
  });

  it('answers null when the vault refuses or does not answer: the donation goes on without a retry', async () => {
    const { vaultToken } = await import('./vault');
    const refuse = (async () => new Response(JSON.stringify({ message: 'invalid' }), { status: 400 })) as unknown as typeof fetch;
    const down = (async () => { throw new TypeError('network'); }) as unknown as typeof fetch;
    await expect(vaultToken(vault, 'AR', card, refuse)).resolves.toBeNull();
    await expect(vaultToken(vault, 'AR', card, down)).resolves.toBeNull();
  });
});
