// The page's stylesheet travels inside its script and is put in place before the first render: no stylesheet blocks
// the (empty) page's first paint, the form never shows unstyled, and one request fewer sits in the chain (issue 19).
import css from './donate.css?inline';
import { StrictMode, useCallback, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { RawIntlProvider } from 'react-intl';
import { createAppIntl } from '../i18n/AppIntlProvider';
import { matchLocale, pageLocale, variantOf, type Locale, type Variant } from '../i18n/locale';
import type { Catalogue } from '../i18n/messages';
import { startCampaign } from './api';
import { App } from './App';
import { parseRoute } from './route';

// Only the donate.* messages of the chosen language are downloaded.
const catalogues: Record<Locale, () => Promise<{ default: Catalogue }>> = {
  es: () => import('virtual:donate-messages/es'),
  en: () => import('virtual:donate-messages/en'),
  pt: () => import('virtual:donate-messages/pt'),
};
// A form speaks as its country does (voseo in AR and UY): the variant's wording over the base, key by key.
const variants: Record<Variant, () => Promise<{ default: Catalogue }>> = {
  'es-AR': () => import('virtual:donate-messages/es-AR'),
};

const style = document.createElement('style');
style.textContent = css;
document.head.append(style);

const locale = matchLocale(new URLSearchParams(location.search).get('locale')) ?? pageLocale();
document.documentElement.lang = locale;

type Wordings = Partial<Record<Variant, Catalogue>>;

function Root({ base, wordings }: { base: Catalogue; wordings: Wordings }) {
  const [messages, setMessages] = useState(base);
  const [tag, setTag] = useState<string>(locale);
  // The wording is at hand when the campaign arrives: App applies it in the same update as the campaign, so
  // the form renders once, in its country's wording (not a second time, a long task on a phone; issue 19).
  const onCountry = useCallback(
    (country: string) => {
      const variant = variantOf(locale, country);
      const wording = variant && wordings[variant];
      if (!variant || !wording) return;
      setMessages({ ...base, ...wording } as Catalogue); // both of one kind: the same build made them
      setTag(variant);
    },
    [base, wordings],
  );
  const intl = useMemo(() => createAppIntl(tag as Locale, messages), [tag, messages]);
  return (
    <RawIntlProvider value={intl}>
      <App initialPath={location.pathname} onCountry={onCountry} />
    </RawIntlProvider>
  );
}

// The campaign and the messages download together, not one after the other; so do the locale's regional
// wordings (es: es-AR's, about 1 KB), which the campaign's country may ask for. One that fails to download
// leaves the form in the base wording.
const route = parseRoute(location.pathname);
if (route.page !== 'none') startCampaign(route.slug);

const regional = (Object.keys(variants) as Variant[]).filter((v) => v.startsWith(`${locale}-`));
void Promise.all([
  catalogues[locale](),
  ...regional.map((v) => variants[v]().then(({ default: wording }) => [v, wording] as const, () => null)),
]).then(([{ default: messages }, ...loaded]) => {
  const wordings: Wordings = Object.fromEntries(loaded.filter((w) => w !== null));
  createRoot(document.getElementById('root') as HTMLElement).render(
    <StrictMode>
      <Root base={messages} wordings={wordings} />
    </StrictMode>,
  );
});
