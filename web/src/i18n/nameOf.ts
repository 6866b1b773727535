import type { IntlShape, MessageDescriptor } from 'react-intl';

/** A code's words from its table (defineMessages); a code the table does not know (one added on the server only) as it is. */
export const nameOf = (intl: IntlShape, table: Record<string, MessageDescriptor>, code: string): string =>
  Object.hasOwn(table, code) ? intl.formatMessage(table[code]!) : code;
