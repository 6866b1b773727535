import { describe, expect, it } from 'vitest';
import { formatMoney } from './lib/money';
import { validate, type Context, type Values } from './validate';

const ok: Values = {
  recurrency: 1, amountChoice: 0, otherAmount: '', upgrade: false, instalments: 1,
  cardNumber: '4509 9535 6623 3704', expiry: '11 / 30', cvv: '123', holderName: 'APRO', notCardholder: false,
  holderIdType: '', holderIdNumber: '', firstName: 'Ana', lastName: 'Gómez', email: 'ana@example.org', uidType: 'DNI',
  uidNumber: '12345678', extras: {}, ticket: '', ticketQuantity: 1,
};
const ctx: Context = {
  presets: [150000], currency: 'ARS', min: 1000, max: 800000, minOther: 50000, brand: 'visa', extras: [],
  format: (v) => formatMoney(v, 'ARS'), now: new Date(2026, 0, 1),
};

describe('validate', () => {
  it('accepts a complete form', () => {
    expect(validate(ok, ctx)).toEqual({});
  });

  it('applies the other-amount minimum with its message', () => {
    const e = validate({ ...ok, amountChoice: 'other', otherAmount: '200' }, ctx);
    expect(e.otherAmount).toEqual({ key: 'minAmount', values: { amount: '$ 500,00' } });
    expect(validate({ ...ok, amountChoice: 'other', otherAmount: '9000' }, ctx).otherAmount?.key).toBe('maxAmount');
  });

  it('requires fields and checks card, expiry, CVV and documents', () => {
    const e = validate({ ...ok, cardNumber: '4509953566233705', expiry: '01 / 20', cvv: '12', firstName: ' ', email: 'x@', uidNumber: '12' }, ctx);
    expect(e.cardNumber?.key).toBe('cardNumberInvalid');
    expect(e.expiry?.key).toBe('expiryPast');
    expect(e.cvv?.key).toBe('cvvInvalid');
    expect(e.firstName?.key).toBe('required');
    expect(e.email?.key).toBe('emailInvalid');
    expect(e.uidNumber?.key).toBe('documentInvalid');
  });

  it('asks for the cardholder document only when the donor is not the cardholder', () => {
    expect(validate({ ...ok, notCardholder: true }, ctx).holderIdNumber?.key).toBe('required');
  });

  it('checks the extra fields as the server does', () => {
    const extras = [
      { key: 'extra.0', type: 'textfield', required: true }, { key: 'extra.1', type: 'alt_email', required: false },
      { key: 'extra.2', type: 'birthday', required: false }, { key: 'extra.3', type: 'cellphone', required: false },
      { key: 'extra.4', type: 'checkbox', required: true },
    ];
    const bad = validate({ ...ok, extras: { 'extra.1': 'nope', 'extra.2': '2099-01-01', 'extra.3': '12ab', 'extra.4': 'false' } }, { ...ctx, extras });
    expect(bad).toEqual({
      'extra.0': { key: 'required' }, 'extra.1': { key: 'emailInvalid' }, 'extra.2': { key: 'birthdayInvalid' },
      'extra.3': { key: 'phoneInvalid' }, 'extra.4': { key: 'required' },
    });
    const good = { 'extra.0': 'Docente', 'extra.1': 'otra@example.org', 'extra.2': '1990-05-17', 'extra.3': '+54 9 11 5555-1234', 'extra.4': 'true' };
    expect(validate({ ...ok, extras: good }, { ...ctx, extras })).toEqual({});
  });

  it("refuses a brand the account's rules do not take, and checks the security code by them", () => {
    const rules = [{ id: 'elo', name: 'Elo', payment_type: 'credit_card', bin_pattern: '^(5067)', exclusion_pattern: '', lengths: [16], security_code_length: 3, luhn: true }];
    const naranja = validate({ ...ok, cardNumber: '5895 6200 0000 0001' }, { ...ctx, rules });
    expect(naranja.cardNumber).toEqual({ key: 'cardNotAllowed', values: { card_name: 'Naranja' } });
    expect(validate({ ...ok, cardNumber: '1234 5678 1234 5670' }, { ...ctx, rules }).cardNumber?.key).toBe('cardTypeRequired');
    expect(validate({ ...ok, cardNumber: '5067 0000 0000 0000', cvv: '1234' }, { ...ctx, brand: 'elo', rules }).cvv?.key).toBe('cvvInvalid');
  });
});
