import { execFileSync } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import { screenshotAll, shot, viewports } from './screens';

// Issue #13, the donor's side of processors: the off-site bank debit. A Colombian organisation whose campaign a
// local processor routes (deploy/seedpse: dLocal offers PSE in Colombia) shows "Débito bancario (PSE)" beside the
// card on its public form; the donor picks their bank, person type and document, is sent to the (sandbox) bank,
// approves or rejects the payment there, and comes back to the thank-you page, which shows what the server's
// records say: waiting for the bank, then approved (the processor's signed notification settled it) or rejected.
// Runs against the real stack (deploy/stack.sh test … with its env sourced).

test.describe.configure({ mode: 'serial', timeout: 240_000 });
test.use({ actionTimeout: 15_000 });

let org: { organization: string; slug: string; login: string };

test.beforeAll(() => {
  const root = process.env.APORTA_ROOT;
  if (!root) throw new Error('APORTA_ROOT is not set: run inside deploy/stack.sh test with .data-testN/env sourced');
  const out = execFileSync('go', ['run', './deploy/seedpse'], { cwd: root, env: process.env, encoding: 'utf8', timeout: 200_000 });
  org = JSON.parse(out.trim().split('\n').pop() ?? '{}');
});

interface LedgerPayment { order_id: string; status: string; bank_transfer?: { bank_code: string; callback_url: string } }

async function ledger(): Promise<LedgerPayment[]> {
  const res = await fetch(`${process.env.APORTA_GATEWAY_URL}/__sandbox/dlocal/ledger?x_login=${org.login}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { payments: LedgerPayment[] }).payments;
}

/** Fills the form for a one-time bank debit and sends the donor to their bank; answers the sandbox ledger's payment. */
async function toTheBank(page: Page, bank: string, screens?: string): Promise<LedgerPayment> {
  const before = (await ledger()).length;
  await page.goto(`/d/${org.slug}`);
  await page.getByText('Débito bancario (PSE)').click();
  await expect(page.getByTestId('bank-debit')).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Por única vez' })).toBeChecked();
  await expect(page.getByText('solo para donaciones por única vez')).toBeVisible();
  await expect(page.getByLabel('Número de tarjeta')).toHaveCount(0);
  await page.getByLabel('Nombre', { exact: true }).fill('Camila');
  await page.getByLabel('Apellido', { exact: true }).fill('Rojas');
  await page.getByLabel('Correo electrónico').fill(`pse-${Date.now()}@example.org`);
  await page.getByLabel('Número de documento', { exact: true }).fill('1020304050');

  // The bank is required: the form says so before anything is sent.
  await page.getByRole('button', { name: /desde mi banco/ }).click();
  await expect(page.getByTestId('form-error')).toBeVisible();
  await expect(page.locator('#f-bank-error')).toHaveText('Este campo es requerido');

  await page.getByLabel('Banco', { exact: true }).selectOption({ label: bank });
  await page.getByLabel('Número de documento del titular de la cuenta').fill('1020304050');
  if (screens) {
    await screenshotAll(page, screens);
    await page.setViewportSize(viewports.phone);
  }
  await page.getByRole('button', { name: /desde mi banco/ }).click();
  await page.waitForURL(/\/dlocal\/bank\//);
  await expect(page.getByRole('heading', { name: /pago a Fundación PSE/ })).toBeVisible();
  const payments = await ledger();
  expect(payments).toHaveLength(before + 1);
  const p = payments.at(-1);
  expect(p?.status).toBe('PENDING');
  return p!;
}

test('bank debit approved at the bank: the return page waits for the bank, then shows the donation approved', async ({ page, context }) => {
  await page.setViewportSize(viewports.phone);
  const p = await toTheBank(page, 'Bancolombia', 'bank-debit-form');
  expect(p.bank_transfer?.bank_code).toBe('1007');
  await shot(page, 'bank-debit-bank-phone');

  // Back at the thank-you page before the bank answered: waiting, from the server's state.
  const waiting = await context.newPage();
  await waiting.setViewportSize(viewports.phone);
  await waiting.goto(p.bank_transfer!.callback_url);
  await expect(waiting.getByTestId('bank-in_process')).toBeVisible();
  await expect(waiting.getByRole('heading', { name: 'Esperando la confirmación de tu banco' })).toBeVisible();
  await shot(waiting, 'bank-debit-waiting-phone');

  await page.getByRole('button', { name: 'Aprobar el pago' }).click();
  await page.waitForURL(new RegExp(`/d/${org.slug}/thanks\\?ref=`));
  await expect(page.getByTestId('bank-approved')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('heading', { name: '¡Gracias por tu donación!' })).toBeVisible();
  await expect(page.getByTestId('thanks-summary')).toContainText('Bancolombia');
  await shot(page, 'bank-debit-approved-phone', true);
  // The page left waiting reads the server again and follows.
  await expect(waiting.getByTestId('bank-approved')).toBeVisible({ timeout: 60_000 });
  await waiting.close();
  expect((await ledger()).find((q) => q.order_id === p.order_id)?.status).toBe('PAID');
});

test('bank debit rejected at the bank: the return page says nothing was charged and offers to try again', async ({ page }) => {
  await page.setViewportSize(viewports.phone);
  const p = await toTheBank(page, 'Banco Davivienda');
  await page.getByRole('button', { name: 'Rechazar' }).click();
  await page.waitForURL(new RegExp(`/d/${org.slug}/thanks\\?ref=`));
  await expect(page.getByTestId('bank-rejected')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('heading', { name: 'Tu banco no aprobó el pago' })).toBeVisible();
  await expect(page.getByTestId('thanks-message')).toContainText('no se te cobró nada');
  await shot(page, 'bank-debit-rejected-phone', true);
  await page.getByRole('link', { name: 'Volver a intentarlo' }).click();
  await expect(page.getByText('Débito bancario (PSE)')).toBeVisible();
  expect((await ledger()).find((q) => q.order_id === p.order_id)?.status).toBe('REJECTED');
});
