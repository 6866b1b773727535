import { defineMessages, type MessageDescriptor } from 'react-intl';

/** Client-side checks (spec §5, §8 local message keys); each returns a message descriptor or undefined. */
export const ruleMessages = defineMessages({
  nameRequired: { id: 'account.rule.nameRequired', defaultMessage: 'Ingresa el nombre de la organización.' },
  nameMin: { id: 'account.rule.nameMin', defaultMessage: 'El nombre debe tener al menos 3 caracteres.' },
  firstNameRequired: { id: 'account.rule.firstNameRequired', defaultMessage: 'Ingresa tu nombre.' },
  firstNameMin: { id: 'account.rule.firstNameMin', defaultMessage: 'El nombre debe tener al menos 3 caracteres.' },
  lastNameRequired: { id: 'account.rule.lastNameRequired', defaultMessage: 'Ingresa tu apellido.' },
  lastNameMin: { id: 'account.rule.lastNameMin', defaultMessage: 'El apellido debe tener al menos 3 caracteres.' },
  emailRequired: { id: 'account.rule.emailRequired', defaultMessage: 'Ingresa tu e-mail.' },
  emailInvalid: { id: 'account.rule.emailInvalid', defaultMessage: 'El e-mail no es válido.' },
  emailSame: { id: 'account.rule.emailSame', defaultMessage: 'El nuevo e-mail debe ser distinto del actual.' },
  cellphoneRequired: { id: 'account.rule.cellphoneRequired', defaultMessage: 'Ingresa tu número de celular.' },
  cellphoneSame: { id: 'account.rule.cellphoneSame', defaultMessage: 'El nuevo número debe ser distinto del actual.' },
  passwordRequired: { id: 'account.rule.passwordRequired', defaultMessage: 'Ingresa una contraseña.' },
  passwordInvalid: {
    id: 'account.rule.passwordInvalid',
    defaultMessage: 'La contraseña debe tener al menos 12 caracteres, una mayúscula, un número y ningún espacio.',
  },
  uidRequired: { id: 'account.rule.uidRequired', defaultMessage: 'Ingresa el número de identificación.' },
  uidIncomplete: { id: 'account.rule.uidIncomplete', defaultMessage: 'Completa el número con el formato indicado.' },
  roleRequired: { id: 'account.rule.roleRequired', defaultMessage: 'Elige tu área en la organización.' },
  codeRequired: { id: 'account.rule.codeRequired', defaultMessage: 'Ingresa el código.' },
});

type Check = MessageDescriptor | undefined;

export function checkOrgName(value: string): Check {
  const v = value.trim();
  if (!v) return ruleMessages.nameRequired;
  if ([...v].length < 3) return ruleMessages.nameMin;
  return undefined;
}

export function checkPersonName(value: string, which: 'first' | 'last'): Check {
  const v = value.trim();
  if (!v) return which === 'first' ? ruleMessages.firstNameRequired : ruleMessages.lastNameRequired;
  if ([...v].length < 3) return which === 'first' ? ruleMessages.firstNameMin : ruleMessages.lastNameMin;
  return undefined;
}

const EMAIL = /^[^\s@"(),:;<>[\]\\]+@[^\s@"(),:;<>[\]\\.]+(\.[^\s@"(),:;<>[\]\\.]+)+$/;

export function checkEmail(value: string, current?: string): Check {
  const v = value.trim();
  if (!v) return ruleMessages.emailRequired;
  if (!EMAIL.test(v)) return ruleMessages.emailInvalid;
  if (current !== undefined && v.toLowerCase() === current.trim().toLowerCase()) return ruleMessages.emailSame;
  return undefined;
}

/** Each password rule separately, so the form can tick them off as the person types. */
export function passwordRules(value: string) {
  return {
    length: [...value].length >= 12,
    uppercase: /\p{Lu}/u.test(value),
    digit: /\d/.test(value),
    noSpace: value.length > 0 && !/\s/.test(value),
  };
}

export function checkPassword(value: string): Check {
  if (!value) return ruleMessages.passwordRequired;
  const r = passwordRules(value);
  return r.length && r.uppercase && r.digit && r.noSpace ? undefined : ruleMessages.passwordInvalid;
}

export function checkCode(value: string): Check {
  return value.trim() ? undefined : ruleMessages.codeRequired;
}
