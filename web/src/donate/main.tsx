import './donate.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RawIntlProvider } from 'react-intl';
import { createAppIntl } from '../i18n/AppIntlProvider';
import { matchLocale, pageLocale, type Locale } from '../i18n/locale';
import { App } from './App';

// Only the donate.* messages of the chosen language are downloaded.
const catalogues: Record<Locale, () => Promise<{ default: Record<string, string> }>> = {
  es: () => import('virtual:donate-messages/es'),
  en: () => import('virtual:donate-messages/en'),
  pt: () => import('virtual:donate-messages/pt'),
};

const locale = matchLocale(new URLSearchParams(location.search).get('locale')) ?? pageLocale();
document.documentElement.lang = locale;

void catalogues[locale]().then(({ default: messages }) => {
  createRoot(document.getElementById('root') as HTMLElement).render(
    <StrictMode>
      <RawIntlProvider value={createAppIntl(locale, messages)}>
        <App initialPath={location.pathname} />
      </RawIntlProvider>
    </StrictMode>,
  );
});
