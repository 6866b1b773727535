import { describe, expect, it } from 'vitest';
import { maskUid, uidComplete } from './countries';
import { checkEmail, checkPassword, passwordRules } from './rules';
import { onboardingSteps, verificationStage } from './steps';

describe('uid masks (§5)', () => {
  it('formats each country as it is typed', () => {
    expect(maskUid('AR', 'CUIT', '20172543597')).toBe('20-17254359-7');
    expect(maskUid('AR', 'CUIT', '2017')).toBe('20-17');
    expect(maskUid('AR', 'CUIT', '20-17254359-79999')).toBe('20-17254359-7');
    expect(maskUid('BR', 'CNPJ', '11222333000181')).toBe('11.222.333/0001-81');
    expect(maskUid('BR', 'CPF', '52998224725')).toBe('529.982.247-25');
    expect(maskUid('CL', 'RUT', '760864285')).toBe('76.086.428-5');
    expect(maskUid('CL', 'RUT', '6080300k')).toBe('6.080.300-K');
    expect(maskUid('CO', 'NIT', '8001972684')).toBe('800197268-4');
    expect(maskUid('MX', 'RFC', 'sat970701nn3')).toBe('SAT-970701-NN3');
    expect(maskUid('MX', 'RFC', 'GODE561231GR8')).toBe('GODE-561231-GR8');
    expect(maskUid('PE', 'RUC', '20100070970123')).toBe('20100070970');
    expect(maskUid('UY', 'RUT', '210000000011')).toBe('21-000000-001-1');
  });

  it('knows when the mask is complete', () => {
    expect(uidComplete('AR', 'CUIT', '20-17254359-7')).toBe(true);
    expect(uidComplete('AR', 'CUIT', '20-1725435')).toBe(false);
    expect(uidComplete('CL', 'RUT', '76.086.428-5')).toBe(true);
    expect(uidComplete('MX', 'RFC', 'SAT-970701-NN3')).toBe(true);
    expect(uidComplete('UY', 'RUT', '21-000000-001')).toBe(false);
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
