import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { gatewaysQuery, type Gateway } from './api';
import { GatewayChooser } from './GatewayChooser';
import { GatewaySelection } from './GatewaySelection';

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  document.head.innerHTML = '<meta name="csrf-token" content="csrf-123">';
});
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

const none: Gateway[] = [
  { id: 'mercadopago', enabled: false, connection: null },
  { id: 'centralpos', enabled: false, connection: null },
  // Issue #13's block: not shown until it exists.
  { id: 'integrated_payments', enabled: false, connection: null },
];

const connected = (status: 'active' | 'needs_reconnection'): Gateway[] => [
  {
    id: 'mercadopago',
    enabled: true,
    connection: { id: 'c-1', status, activated_at: '2026-03-02T02:05:00Z', account_name: 'TESTUSER42', live_mode: false, receives_new_donations: status === 'active' },
  },
  { id: 'centralpos', enabled: false, connection: null },
];

function renderChooser(gateways: Gateway[], onConnected = vi.fn(), returnTo: 'settings' | 'onboarding' = 'settings', organizationId?: string) {
  const client = new QueryClient();
  // The pages' loaders cache the whole list, whose organisation the OAuth form posts back.
  if (organizationId) client.setQueryData(gatewaysQuery().queryKey, { organization_id: organizationId, gateways });
  const invalidate = vi.spyOn(client, 'invalidateQueries');
  renderWithProviders(
    <QueryClientProvider client={client}>
      <GatewayChooser gateways={gateways} timezone="America/Argentina/Buenos_Aires" returnTo={returnTo} onConnected={onConnected} />
    </QueryClientProvider>,
  );
  return { onConnected, invalidate };
}

const block = (name: string) => screen.getByRole('button', { name: new RegExp(`^${name}`) });
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('GatewayChooser', () => {
  it('lists the regular gateways as collapsible blocks, one open at a time', async () => {
    renderChooser(none);
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(['Mercado Pago', 'CentralPos']);
    expect(block('Mercado Pago')).toHaveAttribute('aria-expanded', 'true');
    expect(block('CentralPos')).toHaveAttribute('aria-expanded', 'false');

    await userEvent.click(block('CentralPos'));
    expect(block('CentralPos')).toHaveAttribute('aria-expanded', 'true');
    expect(block('Mercado Pago')).toHaveAttribute('aria-expanded', 'false');
  });

  it("selects Mercado Pago with a real form post carrying the page's CSRF token and where to come back", () => {
    renderChooser(none, vi.fn(), 'onboarding');
    const select = screen.getByRole('button', { name: 'Seleccionar' });
    const form = select.closest('form') as HTMLFormElement;
    expect(form.getAttribute('method')).toBe('post');
    expect(form.getAttribute('action')).toBe('/auth/mercadopago');
    expect(select).toHaveAttribute('type', 'submit');
    expect(Object.fromEntries(new FormData(form))).toEqual({ authenticity_token: 'csrf-123', return_to: 'onboarding' });
  });

  it('posts the organisation the list is of, so the connection is made for the organisation the page shows', () => {
    renderChooser(none, vi.fn(), 'settings', 'org-2');
    const form = screen.getByRole('button', { name: 'Seleccionar' }).closest('form') as HTMLFormElement;
    expect(Object.fromEntries(new FormData(form))).toEqual({ authenticity_token: 'csrf-123', return_to: 'settings', organization_id: 'org-2' });
  });

  it('shows a connected account: Active badge, activation date in the organisation timezone, account, Delete', () => {
    renderChooser(connected('active'));
    const mp = block('Mercado Pago');
    expect(mp).toHaveAttribute('aria-expanded', 'true');
    expect(within(mp).getByText('Activa')).toBeInTheDocument();
    expect(screen.getByText('marzo 01, 2026 - 23:05')).toBeInTheDocument();
    expect(screen.getByText('TESTUSER42')).toBeInTheDocument();
    expect(screen.getByText('Cuenta de prueba')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Eliminar Mercado Pago' })).toBeInTheDocument();
    // Select is only for gateways not connected; no reconnect while the connection works.
    expect(screen.queryByRole('button', { name: 'Reconectar' })).not.toBeInTheDocument();
  });

  it('with both gateways connected, marks the one new donations charge through', () => {
    const both: Gateway[] = [
      {
        id: 'mercadopago',
        enabled: true,
        connection: { id: 'c-1', status: 'active', activated_at: '2026-03-02T02:05:00Z', account_name: 'TESTUSER42', live_mode: false, receives_new_donations: false },
      },
      {
        id: 'centralpos',
        enabled: true,
        connection: { id: 'c-2', status: 'active', activated_at: '2026-04-02T02:05:00Z', account_name: 'Comercio 7', live_mode: true, receives_new_donations: true },
      },
    ];
    renderChooser(both);
    expect(within(block('CentralPos')).getByText('Recibe las donaciones nuevas')).toBeInTheDocument();
    expect(within(block('Mercado Pago')).queryByText('Recibe las donaciones nuevas')).not.toBeInTheDocument();
  });

  it('does not mark the only connected gateway', () => {
    renderChooser(connected('active'));
    expect(screen.queryByText('Recibe las donaciones nuevas')).not.toBeInTheDocument();
  });

  it('offers Reconnect, through the same form post, when the connection needs reconnection', () => {
    renderChooser(connected('needs_reconnection'));
    expect(within(block('Mercado Pago')).getByText('Requiere reconexión')).toBeInTheDocument();
    expect(screen.getByText('La conexión dejó de funcionar')).toBeInTheDocument();
    const reconnect = screen.getByRole('button', { name: 'Reconectar' });
    expect(reconnect.closest('form')?.getAttribute('action')).toBe('/auth/mercadopago');
  });

  it('deletes only after the irreversible confirmation, and Cancel leaves everything as it was', async () => {
    const { invalidate } = renderChooser(connected('active'));
    await userEvent.click(screen.getByRole('button', { name: 'Eliminar Mercado Pago' }));
    let dialog = await screen.findByRole('dialog', { name: /¿Eliminar Mercado Pago\?/ });
    expect(within(dialog).getByText(/irreversible/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fetchMock).not.toHaveBeenCalled();

    fetchMock.mockResolvedValueOnce(new Response(null, { status: 204 }));
    await userEvent.click(screen.getByRole('button', { name: 'Eliminar Mercado Pago' }));
    dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/manage/api/payment_gateways/c-1');
    expect(init?.method).toBe('DELETE');
    expect(new Headers(init?.headers).get('X-CSRF-Token')).toBe('csrf-123');
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['payment_gateways'] });
  });

  it("keeps the delete dialog open with the server's message when it fails", async () => {
    renderChooser(connected('active'));
    fetchMock.mockResolvedValueOnce(json(502, { error: { code: 'gateway.unavailable', message: 'La pasarela no responde.' } }));
    await userEvent.click(screen.getByRole('button', { name: 'Eliminar Mercado Pago' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('La pasarela no responde.');
  });
});

describe('CentralPos modal', () => {
  async function openModal(onConnected = vi.fn()) {
    const rendered = renderChooser(none, onConnected);
    await userEvent.click(block('CentralPos'));
    await userEvent.click(await screen.findByRole('button', { name: 'Seleccionar' }));
    const dialog = await screen.findByRole('dialog', { name: /Conectar CentralPos/ });
    return { dialog, ...rendered };
  }

  it('refuses an empty code before calling the server (gateway.token_required)', async () => {
    const { dialog } = await openModal();
    await userEvent.type(within(dialog).getByLabelText(/Código de autorización/), '   ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Autorizar' }));
    expect(within(dialog).getByText('Ingresa el código de autorización.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/Código de autorización/)).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows the server's error in a request-error box and stays open", async () => {
    fetchMock.mockResolvedValueOnce(json(422, { error: { code: 'gateway.centralpos_invalid_code', message: 'CentralPos no reconoce ese código.' } }));
    const { dialog, onConnected } = await openModal();
    await userEvent.type(within(dialog).getByLabelText(/Código de autorización/), 'CP-WRONG');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Autorizar' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('No pudimos conectar la pasarela');
    expect(alert).toHaveTextContent('CentralPos no reconoce ese código.');
    expect(onConnected).not.toHaveBeenCalled();
  });

  it('sends the trimmed code and reports the connection', async () => {
    fetchMock.mockResolvedValueOnce(json(201, { id: 'c-2', status: 'active', activated_at: '2026-03-02T02:05:00Z', account_name: 'Fundación', live_mode: false }));
    const { dialog, onConnected, invalidate } = await openModal();
    await userEvent.type(within(dialog).getByLabelText(/Código de autorización/), '  CP-ABC123 ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Autorizar' }));
    await waitFor(() => expect(onConnected).toHaveBeenCalledWith('centralpos'));
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/manage/api/payment_gateways/centralpos');
    expect(JSON.parse(String(init?.body))).toEqual({ token: 'CP-ABC123' });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['payment_gateways'] });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('"choose another gateway" closes the modal without connecting', async () => {
    const { dialog } = await openModal();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Elegir otra pasarela' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('GatewaySelection notices', () => {
  function renderSelection(outcome: { connected?: string; error?: string }, gateways = none) {
    const onOutcomeRead = vi.fn();
    renderWithProviders(
      <QueryClientProvider client={new QueryClient()}>
        <GatewaySelection gateways={gateways} returnTo="settings" outcome={outcome} onOutcomeRead={onOutcomeRead} />
      </QueryClientProvider>,
    );
    return onOutcomeRead;
  }

  it('announces a new connection, opens its block and cleans the address', () => {
    const onOutcomeRead = renderSelection({ connected: 'mercadopago' }, connected('active'));
    expect(screen.getByRole('status')).toHaveTextContent('¡Mercado Pago quedó conectada!');
    expect(block('Mercado Pago')).toHaveAttribute('aria-expanded', 'true');
    expect(onOutcomeRead).toHaveBeenCalledOnce();
  });

  it.each([
    ['gateway.oauth_denied', 'No autorizaste la conexión'],
    ['gateway.oauth_state_invalid', 'La solicitud de conexión venció o ya se usó'],
    ['gateway.oauth_invalid_grant', 'La pasarela no aceptó la autorización'],
    ['gateway.account_country_mismatch', 'La cuenta que autorizaste es de otro país'],
    ['gateway.unavailable', 'No pudimos comunicarnos con la pasarela'],
    ['something.else', 'No pudimos conectar la pasarela. Inténtalo de nuevo.'],
    ['constructor', 'No pudimos conectar la pasarela. Inténtalo de nuevo.'],
  ])('explains ?error=%s', (code, text) => {
    const onOutcomeRead = renderSelection({ error: code });
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('La pasarela no se conectó');
    expect(alert).toHaveTextContent(text);
    expect(onOutcomeRead).toHaveBeenCalledOnce();
  });

  it('leaves the address alone and shows nothing without an outcome; a notice can be closed', async () => {
    const onOutcomeRead = renderSelection({});
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(onOutcomeRead).not.toHaveBeenCalled();

    renderSelection({ error: 'gateway.oauth_denied' });
    await userEvent.click(screen.getByRole('button', { name: 'Cerrar' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
