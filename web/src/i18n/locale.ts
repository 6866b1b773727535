export const LOCALES = ['es', 'en', 'pt'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'es';

/** Maps a BCP 47 tag onto a supported locale by its language part (es-AR → es); undefined if unsupported. */
export function matchLocale(tag: string | null | undefined): Locale | undefined {
  const language = tag?.trim().toLowerCase().split(/[-_]/)[0];
  return LOCALES.find((locale) => locale === language);
}

export interface LocaleSources {
  query?: string | null;
  /** `<meta name="aporta-locale">` and `<html lang>`, in that order: what the server declared for this page. */
  declared?: ReadonlyArray<string | null | undefined>;
  navigator?: ReadonlyArray<string>;
}

/** The first source naming a supported locale wins: query param, then the page's declaration, then the browser. */
export function resolveLocale({ query, declared = [], navigator = [] }: LocaleSources): Locale {
  for (const tag of [query, ...declared, ...navigator]) {
    const locale = matchLocale(tag);
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}

/** The locale the page itself declares or the browser prefers; the `?locale=` param is applied by the router. */
export function pageLocale(doc: Document = document, nav: Navigator = navigator): Locale {
  return resolveLocale({
    declared: [
      doc.querySelector<HTMLMetaElement>('meta[name="aporta-locale"]')?.content,
      doc.documentElement.getAttribute('lang'),
    ],
    navigator: nav.languages.length > 0 ? nav.languages : [nav.language],
  });
}
