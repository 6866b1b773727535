import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { StatusCard } from './StatusCard';

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => vi.stubGlobal('fetch', fetchMock));
afterEach(() => vi.unstubAllGlobals());

function renderCard() {
  const client = new QueryClient();
  renderWithProviders(
    <QueryClientProvider client={client}>
      <StatusCard />
    </QueryClientProvider>,
  );
}

const body = {
  status: 'degraded',
  checks: [
    { name: 'directory', ok: true, error: '' },
    { name: 'shard_ar', ok: false, error: 'connection refused' },
  ],
};

describe('StatusCard', () => {
  it('lists each dependency as up or down, also when /readyz answers 503', async () => {
    fetchMock.mockResolvedValue(new Response(JSON.stringify(body), { status: 503 }));
    renderCard();
    const table = await screen.findByRole('table');
    expect(within(table).getByText('shard_ar').closest('tr')).toHaveTextContent('Caído');
    expect(within(table).getByText('directory').closest('tr')).toHaveTextContent('Activo');
    expect(screen.getByText('Degradado')).toBeInTheDocument();
  });

  it('shows an error state when the endpoint is missing', async () => {
    fetchMock.mockResolvedValue(new Response('not found', { status: 404, statusText: 'Not Found' }));
    renderCard();
    expect(await screen.findByRole('alert')).toHaveTextContent('No pudimos consultar el estado del servicio');
    expect(screen.getByRole('button', { name: 'Reintentar' })).toBeInTheDocument();
  });
});
