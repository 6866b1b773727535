import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import en from '../../lang/en.json';
import es from '../../lang/es.json';
import { AppIntlProvider } from '../i18n/AppIntlProvider';
import type { PublicCampaign } from './api';
import { App } from './App';
import { formatMoney, toDecimal } from './lib/money';

const clp = (minor: number) => ({ minor, currency: 'CLP', decimal: toDecimal(minor, 'CLP'), formatted: formatMoney(minor, 'CLP') });

// A campaign whose organisation has no usable gateway connection.
const closed: PublicCampaign = {
  uuid: 'c-9', slug: 'huerta', title: 'Huerta escolar', description: 'Semillas y herramientas.', type: 'fundraise', currency: 'CLP',
  organization_name: 'Fundación Raíces', country: 'CL', objective: '', amounts: [{ amount: clp(5000), label: '' }], allow_one_time: true,
  allow_other_amount: false, min_other_amount: null, limits: { min: clp(1000), max: clp(900000) }, instalments: 0, instalment_options: [],
  periodic_increase: { enabled: false, percentage: null, period_months: null, min_percentage: null, max_percentage: null },
  form_color: '#15803d', cover_url: '', ends_at: null, event: null, form_fields: [], document_types: ['RUT'], default_recurrency: 1,
  gateway: { name: 'mercadopago', tokenizer_url: 'https://tokenizer.example/' },
  accepting_donations: false, closed_reason: 'gateway_missing',
};

let campaign: PublicCampaign = closed;
const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockImplementation(async (url) =>
    String(url).endsWith('/visits') ? new Response(null, { status: 204 }) : new Response(JSON.stringify(campaign), { status: 200 }),
  );
});
afterEach(() => vi.unstubAllGlobals());

const renderApp = (path: string, messages: Record<string, string> = es, locale: 'es' | 'en' = 'es') =>
  render(
    <AppIntlProvider locale={locale} messages={messages}>
      <App initialPath={path} />
    </AppIntlProvider>,
  );

describe('donation page of a campaign that is not accepting donations', () => {
  it('shows a clear closed page instead of the form, not an error', async () => {
    campaign = closed;
    renderApp('/d/huerta');
    const notice = await screen.findByRole('status');
    expect(notice).toHaveTextContent('Esta campaña no está recibiendo donaciones en este momento');
    expect(notice).toHaveTextContent('Fundación Raíces');
    expect(notice).toHaveAttribute('data-closed-reason', 'gateway_missing');
    expect(screen.getByRole('heading', { level: 1, name: 'Huerta escolar' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Número de tarjeta')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Donar/ })).not.toBeInTheDocument();
  });

  it("speaks the donor's language and also closes the one-time-to-monthly page", async () => {
    campaign = { ...closed, closed_reason: undefined };
    renderApp('/d/huerta/convert/d-1', en, 'en');
    expect(await screen.findByRole('status')).toHaveTextContent('This campaign is not accepting donations at the moment');
    expect(screen.queryByRole('button', { name: /every month/ })).not.toBeInTheDocument();
  });

  it('shows the form when the campaign accepts donations', async () => {
    campaign = { ...closed, accepting_donations: true, closed_reason: undefined, gateway: { ...closed.gateway, public_key: 'TEST-pk' } };
    renderApp('/d/huerta');
    expect(await screen.findByLabelText('Número de tarjeta')).toBeInTheDocument();
    expect(screen.queryByText(/no está recibiendo donaciones/)).not.toBeInTheDocument();
  });
});
