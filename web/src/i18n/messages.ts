import { queryOptions } from '@tanstack/react-query';
import type { Locale } from './locale';

export type Messages = Record<string, string>;

// One chunk per catalogue, so a visitor downloads only the language they read.
const catalogues: Record<Locale, () => Promise<{ default: Messages }>> = {
  es: () => import('../../lang/es.json'),
  en: () => import('../../lang/en.json'),
  pt: () => import('../../lang/pt.json'),
};

export const messagesQuery = (locale: Locale) =>
  queryOptions({
    queryKey: ['messages', locale],
    queryFn: async () => (await catalogues[locale]()).default,
    staleTime: Infinity,
  });
