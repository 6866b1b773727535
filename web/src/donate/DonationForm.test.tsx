import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import es from '../../lang/es.json';
import { AppIntlProvider } from '../i18n/AppIntlProvider';
import type { PublicCampaign } from './api';
import { DonationForm } from './DonationForm';
import { formatMoney, toDecimal, type Money } from './lib/money';

const ars = (minor: number): Money => ({ minor, currency: 'ARS', decimal: toDecimal(minor, 'ARS'), formatted: formatMoney(minor, 'ARS') });

const campaign: PublicCampaign = {
  uuid: 'c-1', slug: 'agua', title: 'Agua segura', description: '', type: 'fundraise', currency: 'ARS', organization_name: 'Fundación',
  country: 'AR', objective: '', amounts: [{ amount: ars(150000), label: 'Un filtro' }, { amount: ars(300000), label: '' }], allow_one_time: true,
  allow_other_amount: true, min_other_amount: ars(50000), limits: { min: ars(1000), max: ars(800000) },
  instalments: 0, instalment_options: [], periodic_increase: { enabled: false, percentage: null, period_months: null, min_percentage: 1, max_percentage: 100 },
  form_color: '#ffeb3b', cover_url: '', ends_at: null, event: null, form_fields: [], document_types: ['DNI', 'CUIL'], default_recurrency: 1,
  gateway: { name: 'mercadopago', tokenizer_url: 'https://tokenizer.example/', public_key: 'TEST-pk' },
};

const renderForm = (onSuccess = vi.fn(), c: PublicCampaign = campaign) =>
  render(
    <AppIntlProvider locale="es" messages={es}>
      <DonationForm campaign={c} onSuccess={onSuccess} />
    </AppIntlProvider>,
  );

const type = (label: string | RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

function fillValid() {
  type('Nombre', 'Ana');
  type('Apellido', 'Gómez');
  type('Correo electrónico', 'ana@example.org');
  type('Número de documento', '30123456');
  type('Número de tarjeta', '4509953566233704');
  type('Vencimiento', '1130');
  type('Código de seguridad', '123');
  type(/Nombre del titular/, 'APRO');
}

describe('DonationForm', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows the summary, marks fields invalid and focuses the first error', async () => {
    renderForm();
    fireEvent.click(screen.getByRole('button', { name: 'Donar $ 1.500,00 por mes' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Verifica que todos los campos requeridos estén completos y sean válidos');
    const first = screen.getByLabelText('Nombre');
    expect(first).toHaveFocus();
    expect(first).toHaveAttribute('aria-invalid', 'true');
    expect(first.getAttribute('aria-describedby')).toBe('f-firstName-error');
    expect(screen.getAllByText('Este campo es requerido').length).toBeGreaterThan(0);
  });

  it('detects the brand after 300 ms and formats the number and expiry', async () => {
    vi.useFakeTimers();
    try {
      renderForm();
      type('Número de tarjeta', '4509953566233704');
      expect(document.querySelector('[data-brand]')).toHaveAttribute('data-brand', 'unknown');
      await act(async () => { vi.advanceTimersByTime(310); });
      expect(document.querySelector('[data-brand]')).toHaveAttribute('data-brand', 'visa');
      expect(screen.getByLabelText('Número de tarjeta')).toHaveValue('4509 9535 6623 3704');
      type('Vencimiento', '1130');
      expect(screen.getByLabelText('Vencimiento')).toHaveValue('11 / 30');
    } finally {
      vi.useRealTimers();
    }
  });

  it("names the card as the account's gateway rules do", async () => {
    vi.useFakeTimers();
    try {
      renderForm(vi.fn(), { ...campaign, payment_methods: [
        { id: 'mastercard', name: 'Mastercard', payment_type: 'credit_card', bin_pattern: '^5', exclusion_pattern: '^(528733)', lengths: [16], security_code_length: 3, luhn: true },
        { id: 'debmaster', name: 'Mastercard Débito', payment_type: 'debit_card', bin_pattern: '^(528733)', exclusion_pattern: '', lengths: [16], security_code_length: 3, luhn: true },
      ] });
      type('Número de tarjeta', '5031755734530604');
      await act(async () => { vi.advanceTimersByTime(310); });
      expect(document.querySelector('[data-brand]')).toHaveAttribute('data-brand', 'mastercard');
      expect(screen.getByText('Mastercard')).toBeInTheDocument();
      type('Número de tarjeta', '5287338310253304');
      await act(async () => { vi.advanceTimersByTime(310); });
      expect(screen.getByText('Mastercard Débito')).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('applies the other-amount minimum', async () => {
    renderForm();
    fireEvent.click(screen.getByText('Otro monto'));
    type(/Ingresa el monto/, '100');
    fireEvent.click(screen.getByRole('button', { name: /Donar/ }));
    expect(await screen.findByText('El monto mínimo permitido es $ 500,00', { selector: '.error' })).toBeInTheDocument();
  });

  it("holds an amount sent before the gateway answers to the server's limits, not to the defaults of 10 to 8000", async () => {
    renderForm(vi.fn(), { ...campaign, limits: { min: ars(500000), max: ars(1400000000) },
      amounts: [{ amount: ars(2000000), label: '' }] });
    fireEvent.click(screen.getByRole('button', { name: /Donar/ })); // at once: the gateway is asked only after 1 s
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(screen.queryByText(/El monto máximo permitido/)).toBeNull();
    fireEvent.click(screen.getByText('Otro monto'));
    type(/Ingresa el monto/, '14000001');
    fireEvent.click(screen.getByRole('button', { name: /Donar/ }));
    expect(await screen.findByText('El monto máximo permitido es $ 14.000.000,00', { selector: '.error' })).toBeInTheDocument();
  });

  it('sends the card only to the tokeniser and reuses the idempotency key on retry', async () => {
    const bodies: { url: string; body: string }[] = [];
    fetchMock.mockImplementation(async (url: string, init: RequestInit) => {
      bodies.push({ url, body: String(init.body ?? '') });
      if (url.includes('/v1/card_tokens')) return new Response(JSON.stringify({ id: 'tok', payment_method_id: 'visa' }), { status: 201 });
      if (url.endsWith('/leads')) return new Response(null, { status: 204 });
      return new Response(JSON.stringify({ error: { code: 'donation.rejected', message: 'Tu tarjeta rechazó el pago.' } }), { status: 402 });
    });
    renderForm();
    fillValid();
    const button = screen.getByRole('button', { name: /Donar/ });
    fireEvent.click(button);
    fireEvent.click(button);
    expect(await screen.findByTestId('form-error')).toHaveTextContent('Tu tarjeta rechazó el pago.');
    fireEvent.click(screen.getByRole('button', { name: /Donar/ }));
    await waitFor(() => expect(bodies.filter((b) => b.url === '/d/agua')).toHaveLength(2));

    const tokenCalls = bodies.filter((b) => b.url.includes('/v1/card_tokens'));
    expect(tokenCalls[0]!.url).toBe('https://tokenizer.example/v1/card_tokens?public_key=TEST-pk');
    expect(JSON.parse(tokenCalls[0]!.body)).toMatchObject({ card_number: '4509953566233704', security_code: '123', expiration_month: 11, expiration_year: 2030 });
    const posts = bodies.filter((b) => b.url === '/d/agua').map((b) => JSON.parse(b.body));
    for (const p of posts) {
      expect(JSON.stringify(p)).not.toContain('4509953566233704');
      expect(JSON.stringify(p)).not.toMatch(/security_code|"123"/);
      expect(p.payment_method).toMatchObject({ method_id: 'visa', bin: '450995', last_four: '3704', gateway: { token: 'tok' } });
    }
    expect(posts[0].idempotency_key).toBe(posts[1].idempotency_key);
  });

  it('reports a refused tokenisation with the BIN, last four and length only (§8)', async () => {
    const bodies: { url: string; body: string }[] = [];
    fetchMock.mockImplementation(async (url: string, init: RequestInit) => {
      bodies.push({ url, body: String(init.body ?? '') });
      if (url.includes('/v1/card_tokens')) return new Response(JSON.stringify({ message: 'invalid card', cause: [{ code: 'E999', description: 'Card refused' }] }), { status: 400 });
      return new Response(null, { status: 204 });
    });
    renderForm();
    fillValid();
    fireEvent.click(screen.getByRole('button', { name: /Donar/ }));
    await waitFor(() => expect(bodies.some((b) => b.url.endsWith('/card_errors'))).toBe(true));
    const report = bodies.find((b) => b.url.endsWith('/card_errors'))!;
    expect(report.url).toBe('/api/public/campaigns/agua/card_errors');
    expect(JSON.parse(report.body)).toEqual({ bin: '450995', last_four: '3704', length: 16, code: 'E999', message: 'invalid card' });
    expect(report.body).not.toContain('4509953566233704');
    expect(bodies.filter((b) => b.url === '/d/agua')).toHaveLength(0);
  });

  it('shows the card guard refusal under the document and the extra field that held the number', async () => {
    const extra = (order: number, title: string) => ({ type: 'textfield', title, label: '', width: 'full' as const, required: false, hide_on_mobile: false, value_related_to: '', order });
    fetchMock.mockImplementation(async (url: string) => {
      if (url.includes('/v1/card_tokens')) return new Response(JSON.stringify({ id: 'tok', payment_method_id: 'visa' }), { status: 201 });
      if (url.endsWith('/leads')) return new Response(null, { status: 204 });
      // The unanswered first field is not sent: the answer to the second one travels at index 0.
      return new Response(JSON.stringify({ error: { code: 'card.data_refused', message: 'Por seguridad no recibimos números de tarjeta',
        fields: { 'donor.uid_number': 'Parece un número de tarjeta: no lo escribas aquí', 'form_fields.0.value': 'Parece un número de tarjeta: no lo escribas aquí' } } }), { status: 422 });
    });
    renderForm(vi.fn(), { ...campaign, form_fields: [extra(0, 'Ocupación'), extra(1, 'Comentario')] });
    fillValid();
    type('Comentario', 'Tarjeta 4509 9535 6623 3704');
    fireEvent.click(screen.getByRole('button', { name: /Donar/ }));
    expect(await screen.findByTestId('form-error')).toHaveTextContent('Por seguridad no recibimos números de tarjeta');
    expect(screen.getByLabelText('Número de documento')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Comentario')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Ocupación')).not.toHaveAttribute('aria-invalid', 'true');
    expect(screen.getAllByText('Parece un número de tarjeta: no lo escribas aquí')).toHaveLength(2);
  });
  it('pays one-time by bank debit where the processor offers one: no card asked, the bank fields sent, the donor sent to the bank', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign, pathname: '/d/agua', search: '' });
    const bodies: { url: string; body: string }[] = [];
    fetchMock.mockImplementation(async (url: string, init: RequestInit) => {
      bodies.push({ url, body: String(init.body ?? '') });
      if (url === '/d/agua') return new Response(JSON.stringify({ status: 'in_process', receipt: 'r', redirect_url: 'https://bank.example/pay/1' }), { status: 202 });
      return new Response(null, { status: 204 });
    });
    renderForm(vi.fn(), { ...campaign, country: 'CO', document_types: ['CC', 'NIT', 'Otro'],
      bank_debit: { method: 'PSE', banks: [{ code: '1007', label: 'Bancolombia' }], person_types: ['natural', 'legal'], id_types: ['CC', 'NIT'] } });
    expect(screen.getByRole('radio', { name: 'Mensual' })).toBeChecked();
    fireEvent.click(screen.getByRole('radio', { name: 'Débito bancario (PSE)' }));
    expect(screen.getByRole('radio', { name: 'Por única vez' })).toBeChecked();
    expect(await screen.findByTestId('bank-debit')).toBeInTheDocument();
    expect(screen.queryByLabelText('Número de tarjeta')).toBeNull();
    type('Nombre', 'Ana');
    type('Apellido', 'Gómez');
    type('Correo electrónico', 'ana@example.org');
    type('Número de documento', '30123456');
    fireEvent.click(screen.getByRole('button', { name: /desde mi banco/ }));
    expect(await screen.findAllByText('Este campo es requerido')).toHaveLength(2); // the bank and the account holder's document
    fireEvent.change(screen.getByLabelText('Banco'), { target: { value: '1007' } });
    type('Número de documento del titular de la cuenta', '1020304050');
    fireEvent.click(screen.getByRole('button', { name: /desde mi banco/ }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://bank.example/pay/1'));
    const post = JSON.parse(bodies.find((b) => b.url === '/d/agua')!.body);
    expect(post.donation.recurrency).toBe(0);
    expect(post.payment_method).toEqual({ bank_debit: { bank: '1007', person_type: 'natural', id_type: 'CC', id_number: '1020304050' } });
    expect(bodies.some((b) => b.url.includes('card_tokens'))).toBe(false);
    // Monthly again: the card comes back (a bank debit cannot be charged next month).
    fireEvent.click(screen.getByRole('radio', { name: 'Mensual' }));
    expect(screen.getByLabelText('Número de tarjeta')).toBeInTheDocument();
  });
});
