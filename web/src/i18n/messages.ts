import { queryOptions } from '@tanstack/react-query';
import type { MessageFormatElement } from 'react-intl';
import { pageVariant, type Locale, type Variant } from './locale';

export type Messages = Record<string, string>;

/** A catalogue as react-intl takes it: its strings, or their parsed syntax trees (the public form's build precompiles them). */
export type Catalogue = Messages | Record<string, MessageFormatElement[]>;

// One chunk per catalogue, so a visitor downloads only the language they read.
const catalogues: Record<Locale, () => Promise<{ default: Messages }>> = {
  es: () => import('../../lang/es.json'),
  en: () => import('../../lang/en.json'),
  pt: () => import('../../lang/pt.json'),
};

// Regional variants: only the messages whose wording differs (locale.ts).
const variants: Record<Variant, () => Promise<{ default: Messages }>> = {
  'es-AR': () => import('../../lang/es-AR.json'),
};

/** A locale's catalogue with its variant's wording over it, key by key. */
export async function loadMessages(locale: Locale, variant?: Variant): Promise<Messages> {
  const base = (await catalogues[locale]()).default;
  return variant ? { ...base, ...(await variants[variant]()).default } : base;
}

export const messagesQuery = (locale: Locale, variant: Variant | undefined = pageVariant(locale)) =>
  queryOptions({
    queryKey: ['messages', locale, variant ?? ''],
    queryFn: () => loadMessages(locale, variant),
    staleTime: Infinity,
  });
