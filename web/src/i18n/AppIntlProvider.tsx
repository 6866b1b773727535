import { useMemo, type ReactNode } from 'react';
import { createIntl, createIntlCache, RawIntlProvider, ReactIntlErrorCode, type IntlShape, type MessageDescriptor } from 'react-intl';
import type { Locale } from './locale';
import type { Catalogue, Messages } from './messages';

const cache = createIntlCache();

const missingMarker = (id: string) => `[missing: ${id}]`;

/**
 * Builds an intl whose formatMessage renders `[missing: id]` for ids absent from the catalogue,
 * instead of silently falling back to the source text, so gaps show up in review and tests. The public form's build
 * gives it precompiled messages (syntax trees).
 */
export function createAppIntl(locale: Locale, messages: Catalogue): IntlShape {
  const intl = createIntl(
    {
      locale,
      messages,
      onError: (error) => {
        if (error.code !== ReactIntlErrorCode.MISSING_TRANSLATION) console.error(error);
      },
    },
    cache,
  );
  const format = intl.formatMessage as (...args: unknown[]) => ReturnType<IntlShape['formatMessage']>;
  const guarded = (descriptor: MessageDescriptor, ...rest: unknown[]) =>
    descriptor.id !== undefined && !Object.hasOwn(messages, descriptor.id)
      ? missingMarker(String(descriptor.id))
      : format(descriptor, ...rest);
  return { ...intl, formatMessage: guarded as IntlShape['formatMessage'], $t: guarded as IntlShape['$t'] };
}

export function AppIntlProvider({ locale, messages, children }: { locale: Locale; messages: Messages; children: ReactNode }) {
  const intl = useMemo(() => createAppIntl(locale, messages), [locale, messages]);
  return <RawIntlProvider value={intl}>{children}</RawIntlProvider>;
}
