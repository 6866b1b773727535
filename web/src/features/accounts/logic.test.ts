import { describe, expect, it } from 'vitest';
import { maskUid, uidComplete } from './countries';
import { checkEmail, checkPassword, passwordRules } from './rules';
import { onboardingSteps, verificationStage } from './steps';

describe('uid masks (§5)', () => {
  it('formats each country as it is typed', () => {
    const cases: [country: string, type: string, typed: string, shown: string][] = [
      ['AR', 'CUIT', '20172543597', '20-17254359-7'],
      ['AR', 'CUIT', '2017', '20-17'],
      ['AR', 'CUIT', '20-17254359-79999', '20-17254359-7'],
      ['BR', 'CNPJ', '11222333000181', '11.222.333/0001-81'],
      ['BR', 'CPF', '52998224725', '529.982.247-25'],
      ['CL', 'RUT', '760864285', '76.086.428-5'],
      ['CL', 'RUT', '6080300k', '6.080.300-K'],
      ['CO', 'NIT', '8001972684', '800197268-4'],
      ['MX', 'RFC', 'sat970701nn3', 'SAT-970701-NN3'],
      ['MX', 'RFC', 'GODE561231GR8', 'GODE-561231-GR8'],
      ['PE', 'RUC', '20100070970123', '20100070970'],
      ['UY', 'RUT', '210000000011', '21-000000-001-1'],
    ];
    for (const [country, type, typed, shown] of cases) expect(maskUid(country, type, typed), `${country} ${type} ${typed}`).toBe(shown);
  });

  it('knows when the mask is complete', () => {
    const cases: [country: string, type: string, value: string, complete: boolean][] = [
      ['AR', 'CUIT', '20-17254359-7', true],
      ['AR', 'CUIT', '20-1725435', false],
      ['CL', 'RUT', '76.086.428-5', true],
      ['MX', 'RFC', 'SAT-970701-NN3', true],
      ['UY', 'RUT', '21-000000-001', false],
    ];
    for (const [country, type, value, complete] of cases) expect(uidComplete(country, type, value), `${country} ${type} ${value}`).toBe(complete);
  });
});

describe('password rules', () => {
  it('needs 12 characters, an uppercase letter, a digit and no whitespace', () => {
    expect(checkPassword('')?.id).toBe('account.rule.passwordRequired');
    expect(checkPassword('Abcdefghij1')?.id).toBe('account.rule.passwordInvalid'); // 11
    expect(checkPassword('abcdefghijk1')?.id).toBe('account.rule.passwordInvalid'); // no uppercase
    expect(checkPassword('Abcdefghijkl')?.id).toBe('account.rule.passwordInvalid'); // no digit
    expect(checkPassword('Abcdef ghijk1')?.id).toBe('account.rule.passwordInvalid'); // space
    expect(checkPassword('Aporta-Prueba-2026')).toBeUndefined();
    expect(passwordRules('Ñandú12345678')).toEqual({ length: true, uppercase: true, digit: true, noSpace: true });
  });

  it('says 12 in the message', () => {
    expect(checkPassword('x')?.defaultMessage).toContain('12');
  });

  it('checks an edited e-mail is valid and different', () => {
    expect(checkEmail('a@b')?.id).toBe('account.rule.emailInvalid');
    expect(checkEmail('Ana@Org.org', 'ana@org.org')?.id).toBe('account.rule.emailSame');
    expect(checkEmail('nueva@org.org', 'ana@org.org')).toBeUndefined();
  });
});

describe('onboarding steps', () => {
  it('verifies e-mail first, then cellphone', () => {
    expect(verificationStage({ email_verified: false, cellphone_verified: true })).toBe('email');
    expect(verificationStage({ email_verified: true, cellphone_verified: false })).toBe('cellphone');
    expect(verificationStage({ email_verified: true, cellphone_verified: true })).toBe('complete');
  });

  it('moves the step bar along (§2)', () => {
    expect(onboardingSteps({ verified: false, hasGateway: false })).toEqual({ verification: 'active', gateway: 'inactive', documents: 'inactive' });
    expect(onboardingSteps({ verified: true, hasGateway: false })).toEqual({ verification: 'completed', gateway: 'active', documents: 'inactive' });
    expect(onboardingSteps({ verified: true, hasGateway: true })).toEqual({ verification: 'completed', gateway: 'completed', documents: 'active' });
  });
});
