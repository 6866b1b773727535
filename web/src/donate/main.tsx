import './donate.css';
import { StrictMode, useCallback, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { RawIntlProvider } from 'react-intl';
import { createAppIntl } from '../i18n/AppIntlProvider';
import { matchLocale, pageLocale, variantOf, type Locale, type Variant } from '../i18n/locale';
import { startCampaign } from './api';
import { App } from './App';
import { parseRoute } from './route';

// Only the donate.* messages of the chosen language are downloaded.
const catalogues: Record<Locale, () => Promise<{ default: Record<string, string> }>> = {
  es: () => import('virtual:donate-messages/es'),
  en: () => import('virtual:donate-messages/en'),
  pt: () => import('virtual:donate-messages/pt'),
};
// A form speaks as its country does (voseo in AR and UY): the variant's wording over the base, key by key.
const variants: Record<Variant, () => Promise<{ default: Record<string, string> }>> = {
  'es-AR': () => import('virtual:donate-messages/es-AR'),
};

const locale = matchLocale(new URLSearchParams(location.search).get('locale')) ?? pageLocale();
document.documentElement.lang = locale;

function Root({ base }: { base: Record<string, string> }) {
  const [messages, setMessages] = useState(base);
  const [tag, setTag] = useState<string>(locale);
  const onCountry = useCallback(
    (country: string) => {
      const variant = variantOf(locale, country);
      if (!variant) return;
      void variants[variant]().then(({ default: wording }) => {
        setMessages({ ...base, ...wording });
        setTag(variant);
      });
    },
    [base],
  );
  return (
    <RawIntlProvider value={createAppIntl(tag as Locale, messages)}>
      <App initialPath={location.pathname} onCountry={onCountry} />
    </RawIntlProvider>
  );
}

// The campaign and the messages download together, not one after the other.
const route = parseRoute(location.pathname);
if (route.page !== 'none') startCampaign(route.slug);

void catalogues[locale]().then(({ default: messages }) => {
  createRoot(document.getElementById('root') as HTMLElement).render(
    <StrictMode>
      <Root base={messages} />
    </StrictMode>,
  );
});
