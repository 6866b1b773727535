import { render, screen } from '@testing-library/react';
import { FormattedMessage, useIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import en from '../../lang/en.json';
import es from '../../lang/es.json';
import pt from '../../lang/pt.json';
import esAR from '../../lang/es-AR.json';
import { loadMessages } from './messages';
import { AppIntlProvider } from './AppIntlProvider';
import { matchLocale, pageLocale, pageVariant, rememberLocale, resolveLocale, variantOf } from './locale';

describe('catalogues', () => {
  it('es, en and pt define exactly the same message ids', () => {
    const ids = Object.keys(es).sort();
    expect(Object.keys(en).sort()).toEqual(ids);
    expect(Object.keys(pt).sort()).toEqual(ids);
  });
});

describe('regional variants', () => {
  it('es-AR words only what differs (voseo), with the base catalogue\'s ids and placeholders', () => {
    for (const [id, text] of Object.entries(esAR)) {
      expect(es).toHaveProperty(id);
      const placeholders = (s: string) => (s.match(/\{\w+/g) ?? []).sort();
      expect(placeholders(text), id).toEqual(placeholders((es as Record<string, string>)[id]!));
      expect(text).not.toBe((es as Record<string, string>)[id]);
    }
  });

  it('chooses voseo for Argentina and Uruguay, the base Spanish elsewhere', () => {
    expect(variantOf('es', 'AR')).toBe('es-AR');
    expect(variantOf('es', 'es_UY')).toBe('es-AR');
    expect(variantOf('es', 'MX')).toBeUndefined();
    expect(variantOf('es', 'es-CO')).toBeUndefined();
    expect(variantOf('pt', 'BR')).toBeUndefined();
    expect(variantOf('en', 'AR')).toBeUndefined();
  });

  it('es-AR leaves no message addressing the reader with tú (every key falls back to es only where the words agree)', async () => {
    const messages = await loadMessages('es', 'es-AR');
    // Unambiguous tuteo forms: imperatives and verbs of the second person that voseo writes otherwise.
    const tuteo =
      /(?<![\p{L}])(puedes|tienes|quieres|necesitas|debes|eres|Ingresa|Ingrésalo|Elige|Revisa|Inténtalo|Vuelve|Sube|Usa|Escribe|Verifica|Conecta|Crea|Confirma|Registra|Empieza|Entra|Arrastra|Pega|Busca|Déjalo|Deja|Acepta)(?![\p{L}])/u;
    const left = Object.entries(messages).filter(([, text]) => tuteo.test(text));
    expect(left).toEqual([]);
  });

  it('Uruguay reads the same voseo as Argentina', () => {
    window.history.replaceState(null, '', '/?locale=es-UY');
    try {
      expect(pageVariant('es')).toBe('es-AR');
    } finally {
      window.history.replaceState(null, '', '/');
    }
    expect(pageVariant('es')).toBeUndefined();
  });

  it('falls back to the base catalogue key by key', async () => {
    const messages = await loadMessages('es', 'es-AR');
    expect(messages['account.rule.codeRequired']).toBe('Ingresá el código.');
    expect(messages['table.range']).toBe((es as Record<string, string>)['table.range']);
    expect(Object.keys(messages).sort()).toEqual(Object.keys(es).sort());
  });
});

describe('locale resolution', () => {
  it('falls back from regional variants and rejects unknown languages', () => {
    expect(matchLocale('es-AR')).toBe('es');
    expect(matchLocale('pt_BR')).toBe('pt');
    expect(matchLocale('EN')).toBe('en');
    expect(matchLocale('fr')).toBeUndefined();
    expect(matchLocale(undefined)).toBeUndefined();
  });

  it('prefers the query param, then the page declaration, then es', () => {
    expect(resolveLocale({ query: 'en', declared: ['pt'] })).toBe('en');
    expect(resolveLocale({ query: 'xx', declared: [undefined, 'pt-BR'] })).toBe('pt');
    expect(resolveLocale({ declared: ['fr-FR'] })).toBe('es');
    expect(resolveLocale({})).toBe('es');
  });

  it('reads the page meta before <html lang>', () => {
    const doc = document.implementation.createHTMLDocument();
    doc.documentElement.lang = 'en';
    expect(pageLocale(doc)).toBe('en');
    doc.head.innerHTML = '<meta name="aporta-locale" content="pt-BR">';
    expect(pageLocale(doc)).toBe('pt');
  });

  it('remembers a choice in the aporta_locale cookie', () => {
    rememberLocale('pt');
    expect(document.cookie).toContain('aporta_locale=pt');
  });
});

function Probe() {
  const intl = useIntl();
  return <span data-testid="imperative">{intl.formatMessage({ id: 'not.there', defaultMessage: 'Fuente' })}</span>;
}

describe('AppIntlProvider', () => {
  it('renders catalogue messages with their values', () => {
    render(
      <AppIntlProvider locale="en" messages={en}>
        <FormattedMessage id="table.range" defaultMessage="x" values={{ from: 1, to: 10, total: 42 }} />
      </AppIntlProvider>,
    );
    expect(screen.getByText('Showing 1–10 of 42')).toBeInTheDocument();
  });

  it('marks a missing message instead of falling back to the source text', () => {
    render(
      <AppIntlProvider locale="es" messages={{}}>
        <FormattedMessage id="nav.home" defaultMessage="Inicio" />
        <Probe />
      </AppIntlProvider>,
    );
    expect(screen.getByText('[missing: nav.home]')).toBeInTheDocument();
    expect(screen.getByTestId('imperative')).toHaveTextContent('[missing: not.there]');
  });
});
