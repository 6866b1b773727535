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
}

/**
 * The first source naming a supported locale wins: query param, then the page's declaration, else
 * Spanish. The browser's own language is deliberately not a source: the product is Spanish first, and a
 * person's choice travels as the aporta_locale cookie, which the server declares in the page.
 */
export function resolveLocale({ query, declared = [] }: LocaleSources): Locale {
  for (const tag of [query, ...declared]) {
    const locale = matchLocale(tag);
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}

/** The locale the page declares; the `?locale=` param is applied by the router. */
export function pageLocale(doc: Document = document): Locale {
  return resolveLocale({
    declared: [
      doc.querySelector<HTMLMetaElement>('meta[name="aporta-locale"]')?.content,
      doc.documentElement.getAttribute('lang'),
    ],
  });
}

/** Remembers a person's language choice for later visits and for the server's messages. */
export function rememberLocale(locale: Locale, doc: Document = document): void {
  doc.cookie = `aporta_locale=${locale}; path=/; max-age=31536000; samesite=lax`;
}

/**
 * Regional variants with wording of their own (voseo in Argentina and Uruguay): lang/es-AR.json holds
 * only the messages that differ, and every other message falls back to the base catalogue key by key.
 * Mexico, Colombia, Chile and Peru read the base Spanish (tuteo); Brazil reads pt, which is Brazilian.
 */
const VOSEO = ['AR', 'UY'];
export type Variant = 'es-AR';

/** The variant of a locale for a region: a tag's region (es-AR, es_UY) or a country code (AR). */
export function variantOf(locale: Locale, regionOrTag: string | null | undefined): Variant | undefined {
  const parts = regionOrTag?.trim().split(/[-_]/) ?? [];
  const region = (parts.length > 1 ? parts[1] : parts[0])?.toUpperCase();
  return locale === 'es' && region !== undefined && VOSEO.includes(region) ? 'es-AR' : undefined;
}

/** The variant the page declares (?locale=es-AR, or the server's aporta-locale for a remembered choice). */
export function pageVariant(locale: Locale, doc: Document = document): Variant | undefined {
  const query = new URLSearchParams(doc.location?.search ?? '').get('locale');
  for (const tag of [query, doc.querySelector<HTMLMetaElement>('meta[name="aporta-locale"]')?.content]) {
    if (matchLocale(tag) === locale && tag?.match(/[-_]/)) return variantOf(locale, tag);
  }
  return undefined;
}
