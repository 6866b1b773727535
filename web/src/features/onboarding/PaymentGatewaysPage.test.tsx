import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { organizationQuery, type Organization } from '../documents/api';
import { gatewaysQuery, type Gateway } from '../gateways/api';
import { PaymentGatewaysPage } from './PaymentGatewaysPage';

vi.mock('../gateways/useOutcome', () => ({ useOutcome: () => ({ outcome: {}, onOutcomeRead: () => {} }) }));

// The guide modal asks for its progress; it has been seen already.
beforeEach(() => vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ step: 1 }), { status: 200 }))));
afterEach(() => vi.unstubAllGlobals());

const org = { id: 'o-1', name: 'Fundación', country: 'AR', timezone: 'America/Argentina/Buenos_Aires', documents: {} } as Organization;

function renderPage(gateways: Gateway[]) {
  const client = new QueryClient();
  client.setQueryData(gatewaysQuery().queryKey, { organization_id: 'org-1', gateways });
  client.setQueryData(organizationQuery().queryKey, org);
  renderWithProviders(
    <QueryClientProvider client={client}>
      <PaymentGatewaysPage />
    </QueryClientProvider>,
  );
}

const step = (key: string) => document.querySelector(`[data-step="${key}"]`);

describe('onboarding gateway step', () => {
  it('is the active step until a gateway is connected, with the selection and a "select later" link', () => {
    renderPage([
      { id: 'mercadopago', enabled: false, connection: null },
      { id: 'centralpos', enabled: false, connection: null },
    ]);
    expect(step('verification')).toHaveAttribute('data-state', 'completed');
    expect(step('gateway')).toHaveAttribute('data-state', 'active');
    expect(step('documents')).toHaveAttribute('data-state', 'inactive');
    expect(screen.getByRole('link', { name: 'Seleccionar más tarde' })).toHaveAttribute('href', '/manage/dashboard');
    expect(screen.getByRole('button', { name: 'Seleccionar' }).closest('form')?.querySelector('input[name="return_to"]')).toHaveValue('onboarding');
    expect(screen.queryByText('Próximamente')).not.toBeInTheDocument();
  });

  it('is completed once a gateway exists, and documents become the active step', () => {
    renderPage([
      { id: 'mercadopago', enabled: false, connection: null },
      { id: 'centralpos', enabled: true, connection: { id: 'c', status: 'active', activated_at: '2026-03-02T02:05:00Z', account_name: 'Fundación SA', live_mode: false, receives_new_donations: true } },
    ]);
    expect(step('gateway')).toHaveAttribute('data-state', 'completed');
    expect(step('documents')).toHaveAttribute('data-state', 'active');
    expect(screen.getByText('Fundación SA')).toBeInTheDocument();
  });
});
