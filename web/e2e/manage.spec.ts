// The manage area against the real test stack (issue 6): dashboard numbers for a known data set, the
// donations list, the donation detail and each of its actions, transactions and the leads download.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import {
  ADMIN, DEMO_ORG, fillDonationForm, pageApi, screenshotAll, signedInWithCampaign, signIn, type CreatedCampaign,
} from './campaign-helpers';

test.describe.configure({ mode: 'serial' });

const tag = Date.now().toString(36);
const VISITS = 5;
let campaign: CreatedCampaign;
const donors = {
  a: { email: `ana.a.${tag}@example.org`, first: 'Ana', last: 'Pérez', amount: '1500', monthly: true },
  b: { email: `bruno.b.${tag}@example.org`, first: 'Bruno', last: 'Díaz', amount: '3000', monthly: true },
  c: { email: `carla.c.${tag}@example.org`, first: 'Carla', last: 'Suárez', amount: '6000', monthly: false },
  d: { email: `diego.d.${tag}@example.org`, first: 'Diego', last: 'Luna', amount: '1500', monthly: true },
};
const uuids: Record<keyof typeof donors, string> = { a: '', b: '', c: '', d: '' };

function shardSql(sql: string) {
  const dsn = (process.env.APORTA_SHARD_DSNS ?? '').split(',').find((s) => s.startsWith('AR='))?.slice(3);
  if (!dsn) throw new Error('APORTA_SHARD_DSNS has no AR shard');
  const bin = ['/usr/lib/postgresql/15/bin/psql', '/usr/bin/psql'].find((b) => existsSync(b)) ?? 'psql';
  return execFileSync(bin, [dsn, '-v', 'ON_ERROR_STOP=1', '-Atqc', sql], { stdio: 'pipe' }).toString().trim();
}

/** Tokenises a card at the sandbox gateway, as the public form does in the browser. */
async function token(holder = 'APRO', pan = '4509953566233704') {
  const res = await fetch(`${process.env.APORTA_GATEWAY_URL}/v1/card_tokens`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ card_number: pan, security_code: '123', expiration_month: 11, expiration_year: 2030, cardholder: { name: holder, identification: { type: 'DNI', number: '30123456' } } }),
  });
  const body = (await res.json()) as { id: string };
  expect(res.ok, JSON.stringify(body)).toBeTruthy();
  return body.id;
}

async function donate(page: Page, d: (typeof donors)[keyof typeof donors]) {
  const res = await pageApi<{ status: string; donation: { uuid: string } }>(page, 'POST', `/d/${campaign.slug}`, {
    donation: { recurrency: d.monthly ? 1 : 0, items: [{ uuid: randomUUID(), amount: d.amount, item_name: campaign.title, quantity: 1 }] },
    payment_method: {
      gateway: { name: 'mercadopago', token: await token() }, method_id: 'visa', bin: '450995', last_four: '3704', expiration_month: 11, expiration_year: 2030,
      cardholder_name: 'APRO', cardholder_id_type: 'DNI', cardholder_id_number: '30123456', donor_is_cardholder: true,
    },
    donor: { first_name: d.first, last_name: d.last, email: d.email, uid_type: 'DNI', uid_number: '30123456' },
    idempotency_key: randomUUID(),
  });
  expect([200, 201], JSON.stringify(res.body)).toContain(res.status);
  expect(res.body.status).toBe('approved');
  return res.body.donation.uuid;
}

const detail = (page: Page, uuid: string) =>
  pageApi<{ donation: { status: string; discard_reason: string | null; amount: { formatted: string }; collect_last_day: boolean }; transactions: { status: string }[]; upgrade: { percentage: string; period: number } | null; payment_method: { last_four: string } }>(
    page, 'GET', `/manage/api/donations/${uuid}`);

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  const set = await signedInWithCampaign(browser, `Huerta Comunitaria ${tag}`);
  const page = set.page;
  campaign = set.campaign;
  // Monthly donations are charged at once (otherwise the first charge waits for the collect day).
  const charged = await pageApi(page, 'PATCH', `/manage/api/campaigns/${campaign.uuid}`, { immediate_charge: true });
  expect(charged.status, JSON.stringify(charged.body)).toBe(200);
  // A known data set: VISITS visits to the form, four approved donations (three monthly, one one-time).
  for (let i = 0; i < VISITS; i++) {
    const visit = page.waitForResponse((r) => r.url().endsWith(`/api/public/campaigns/${campaign.slug}/visits`) && r.request().method() === 'POST');
    await page.goto(`/d/${campaign.slug}`);
    expect((await visit).ok()).toBeTruthy();
  }
  for (const k of Object.keys(donors) as (keyof typeof donors)[]) uuids[k] = await donate(page, donors[k]);
  // D was paused (expired card) 8 days ago and never resumed: the dashboard counts it (the 7-day window).
  // The pause goes through the API right after the donation was made (its workflow takes updates from its
  // first task on); only its recorded time is moved back.
  const paused = await pageApi(page, 'POST', `/manage/api/donations/${uuids.d}/pause`, { reason: 'cc_expired' });
  expect(paused.status, JSON.stringify(paused.body)).toBe(200);
  shardSql(`UPDATE donation_versions SET created_at = now() - interval '8 days' WHERE organization_id = '${DEMO_ORG}' AND donation_id = '${uuids.d}' AND field = 'status'`);
  shardSql(`UPDATE donations SET paused_since = now() - interval '8 days' WHERE organization_id = '${DEMO_ORG}' AND id = '${uuids.d}'`);
  shardSql(`SELECT dashboard_rollup_rebuild('${DEMO_ORG}')`); // the pause facts follow the moved history
  await page.close();
});

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test('dashboard: every widget agrees with the known data set', async ({ page }) => {
  await page.goto(`/manage/dashboard?campaign=${campaign.uuid}`);
  const widget = (name: string) => page.locator(`[data-widget="${name}"] [data-value]`);
  await expect(widget('raised')).toHaveText('$ 12.000,00');
  await expect(widget('average')).toHaveText('$ 3.000,00');
  await expect(widget('new_donations')).toHaveText('4');
  await expect(widget('visits')).toHaveText(String(VISITS));
  await expect(widget('conversion')).toHaveText(/^80\s?%$/);
  await expect(widget('paused')).toHaveText('1');
  await expect(widget('discarded')).toHaveText('0');
  await expect(page.locator('[data-widget="pause_reasons"] [data-reason="Tarjeta vencida"]')).toHaveAttribute('data-count', '1');
  await expect(page.locator('[data-guide="create_campaign"]')).toHaveCount(0);
  // The URL keeps the filters; the API gives the same numbers.
  await page.locator('label', { hasText: /^7 días$/ }).click();
  await expect(page).toHaveURL(/from=\d{4}-\d{2}-\d{2}/);
  await expect(page).toHaveURL(/campaign=/);
  await expect(widget('new_donations')).toHaveText('4');
  const api = await pageApi<{ raised: { amount_minor: number }[]; new_donations: number; visits: number; paused_donations: number }>(page, 'GET', `/manage/api/dashboard?campaign=${campaign.uuid}`);
  expect(api.body).toMatchObject({ raised: [{ amount: { minor: 1_200_000 } }], new_donations: 4, visits: VISITS, paused_donations: 1 });
  await page.locator('label', { hasText: /^30 días$/ }).click();
  await page.waitForTimeout(600);
  await screenshotAll(page, 'manage-dashboard');
  // Monthly only: A, B, D.
  await page.goto(`/manage/dashboard?campaign=${campaign.uuid}&frequency=monthly`);
  await expect(widget('new_donations')).toHaveText('3');
  await expect(widget('raised')).toHaveText('$ 6.000,00');
});

test('donations list: search, filters and sorting live in the URL; CSV and leads', async ({ page }) => {
  await page.goto('/manage/donations');
  await expect(page.getByRole('heading', { level: 1, name: 'Donaciones' })).toBeVisible();
  await page.getByLabel('Buscar').fill(tag);
  await expect(page).toHaveURL(new RegExp(`q=${tag}`));
  await expect(page.locator('tbody tr')).toHaveCount(4);
  await screenshotAll(page, 'manage-donations');
  await page.getByRole('button', { name: /^Monto/ }).click();
  await expect(page).toHaveURL(/sort=-amount/);
  await expect(page.locator('tbody tr').first()).toContainText('Carla Suárez');
  await page.goto(`/manage/donations?q=${tag}&frequency=one_time`);
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await expect(page.locator('tbody tr')).toContainText('$ 6.000,00');
  const csv = page.getByRole('link', { name: 'Exportar CSV' });
  const href = (await csv.getAttribute('href'))!;
  expect(href).toContain('frequency=one_time');
  const csvText = await page.evaluate(async (u) => (await fetch(u, { signal: AbortSignal.timeout(30_000) })).text(), href);
  expect(csvText).toContain(donors.c.email);
  expect(csvText).not.toContain(donors.a.email);
  await page.goto(`/manage/donations?q=nadie-${tag}`);
  await expect(page.getByText('Ninguna donación coincide con los filtros')).toBeVisible();

  // Leads by e-mail: idle → in process → success.
  await page.goto('/manage/donations');
  await page.getByRole('button', { name: 'Descargar leads' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('últimos 90 días');
  await screenshotAll(page, 'manage-leads-dialog', false);
  await dialog.getByRole('button', { name: 'Enviar enlace' }).click();
  await expect(dialog.getByText('Te enviamos un enlace de descarga por correo electrónico.')).toBeVisible({ timeout: 20_000 });
  await expect(dialog.getByText(/revisa tu carpeta de spam/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Entendido' }).click();
  await expect(dialog).toHaveCount(0);
});

test('donation detail: pause then restore, collect payment refused for next month, add an upgrade, edit the collect day, change the card', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(`/manage/donations/${uuids.a}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ana Pérez');
  await expect(page.getByTestId('donation-status')).toHaveText('Activa');
  await screenshotAll(page, 'manage-donation');

  // Pause with a reason.
  await page.getByRole('button', { name: 'Pausar', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Motivo de la pausa').click();
  await page.getByRole('option', { name: 'El donante pidió detener el débito' }).click();
  await dialog.getByRole('button', { name: 'Pausar' }).click();
  await expect(page.locator('[data-save-status="saved"]')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('donation-status')).toHaveText('Pausada');
  await expect(page.getByTestId('paused-info')).toContainText('El donante pidió detener el débito');
  expect((await detail(page, uuids.a)).body.donation.status).toBe('paused');
  await screenshotAll(page, 'manage-donation-paused');

  // Restore.
  await page.getByRole('button', { name: 'Reanudar' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Reanudar' }).click();
  await expect(page.getByTestId('donation-status')).toHaveText('Activa', { timeout: 30_000 });
  expect((await detail(page, uuids.a)).body.donation.status).toBe('active');

  // Collect payment now: this month is paid (charged at once) and restoring moved the next charge to
  // next month, which is not due: the action is not offered and the API refuses it, charging nothing.
  // (Collecting a due period: TestCollectNowChargesADuePeriodOnce in api/donation.)
  const before = (await detail(page, uuids.a)).body.transactions.length;
  await expect(page.getByRole('button', { name: 'Cobrar ahora' })).toHaveCount(0);
  const collect = await pageApi<{ error: { code: string } }>(page, 'POST', `/manage/api/donations/${uuids.a}/collect_payment`, {});
  expect(collect.status).toBe(409);
  expect(collect.body.error.code).toBe('donation.collect_not_due');
  expect((await detail(page, uuids.a)).body.transactions.length).toBe(before);

  // Add a periodic increase: 10 % every year.
  await page.getByTestId('upgrade-card').getByRole('button', { name: 'Agregar' }).click();
  const up = page.getByRole('dialog');
  await up.getByLabel('Porcentaje').fill('10');
  await screenshotAll(page, 'manage-upgrade-dialog', false);
  await up.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByTestId('upgrade-current')).toContainText('10% cada año', { timeout: 30_000 });
  await expect(page.getByTestId('upgrade-current')).toContainText('$ 1.650,00');
  expect((await detail(page, uuids.a)).body.upgrade).toMatchObject({ period: 12 });

  // Edit the donation: the collect day moves to the last day of the month.
  await page.getByTestId('donation-card').getByRole('button', { name: 'Editar' }).click();
  const edit = page.getByRole('dialog');
  await edit.getByLabel('Día de cobro').click();
  await page.getByRole('option', { name: 'Último día del mes' }).click();
  await screenshotAll(page, 'manage-edit-dialog', false);
  await edit.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByTestId('donation-card')).toContainText('Último día del mes', { timeout: 30_000 });
  expect((await detail(page, uuids.a)).body.donation.collect_last_day).toBe(true);

  // Change the card: tokenised in the browser, only the token and card facts reach our API.
  const ours: string[] = [];
  page.on('request', (r) => { if (r.url().includes('/manage/api/')) ours.push(r.postData() ?? ''); });
  await page.getByTestId('payment-card').getByRole('button', { name: 'Cambiar' }).click();
  const card = page.getByRole('dialog');
  await card.getByLabel('Número de tarjeta').pressSequentially('4111111111111111', { delay: 5 });
  await expect(card.getByLabel('Número de tarjeta')).toHaveValue('4111 1111 1111 1111');
  await card.getByLabel('Vencimiento').pressSequentially('1231');
  await card.getByLabel('Código de seguridad').fill('123');
  await card.getByLabel(/Nombre del titular/).fill('APRO');
  await screenshotAll(page, 'manage-card-dialog', false);
  const tokenised = page.waitForRequest((r) => r.url().includes('/v1/card_tokens') && new URL(r.url()).origin !== new URL(page.url()).origin);
  await card.getByRole('button', { name: 'Guardar tarjeta' }).click();
  await tokenised;
  await expect(page.getByTestId('card-last-four')).toHaveText('1111', { timeout: 30_000 });
  expect((await detail(page, uuids.a)).body.payment_method.last_four).toBe('1111');
  for (const body of ours) {
    expect(body).not.toContain('4111111111111111');
    expect(body).not.toMatch(/"(security_code|card_number|cvv)"/);
  }
  await page.getByRole('tab', { name: /Cambios/ }).click();
  await expect(page.getByTestId("donation-versions").locator("[data-field=payment_method]")).toContainText("Medio de pago");
  await expect(page.getByTestId('donation-versions').locator('[data-field=collect_day]')).toContainText('Día de cobro');
  await screenshotAll(page, 'manage-donation-after');
});

test('donation detail: discard with a reason (irreversible)', async ({ page }) => {
  await page.goto(`/manage/donations/${uuids.b}`);
  await page.getByRole('button', { name: 'Más acciones' }).click();
  await page.getByRole('menuitem', { name: 'Dar de baja' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Esta acción es irreversible');
  await expect(dialog.getByRole('radio', { name: 'Pedido del donante' })).toBeChecked();
  await dialog.getByRole('radio', { name: 'Motivos económicos' }).check();
  await screenshotAll(page, 'manage-discard-dialog', false);
  await dialog.getByRole('button', { name: 'Descartar' }).click();
  await expect(page.getByTestId('donation-status')).toHaveText('Dada de baja', { timeout: 30_000 });
  await expect(page.getByTestId('discarded-info')).toContainText('Motivos económicos');
  await expect(page.getByRole('button', { name: 'Pausar', exact: true })).toHaveCount(0);
  const api = (await detail(page, uuids.b)).body.donation;
  expect(api).toMatchObject({ status: 'discarded', discard_reason: 'financial_reasons' });

  await page.goto(`/manage/dashboard?campaign=${campaign.uuid}`);
  await expect(page.locator('[data-widget="discarded"] [data-value]')).toHaveText('1');
  await expect(page.locator('[data-widget="discard_reasons"] [data-reason="Motivos económicos"]')).toHaveAttribute('data-count', '1');
});

test('signed out, a manage page sends to the login and comes back to itself after it', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`/manage/donations?q=${tag}`);
  await expect(page).toHaveURL(/\/account\/login\?flow=/, { timeout: 15_000 });
  await page.locator('input[name="identifier"]').fill(ADMIN.email);
  await page.locator('input[name="password"]').fill(ADMIN.password);
  await page.locator('form button[type="submit"]').first().click();
  await expect(page).toHaveURL(new RegExp(`/manage/donations\\?q=${tag}$`), { timeout: 20_000 });
  await expect(page.locator('tbody tr')).toHaveCount(4);
  await context.close();
});

test('transactions: month summary per status and the rows behind a bucket', async ({ page }) => {
  test.setTimeout(120_000);
  type Bucket = { count: number; amount: { minor: number; formatted: string } };
  type Row = { donation_uuid: string; status: string; donor: { email: string } };
  const ars = async () => {
    const res = await pageApi<{ currencies: { currency: string; approved: Bucket; rejected: Bucket }[] }>(page, 'GET', '/manage/api/payment_transactions/summary');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const zero = { count: 0, amount: { minor: 0, formatted: '' } };
    return res.body.currencies.find((c) => c.currency === 'ARS') ?? { currency: 'ARS', approved: zero, rejected: zero };
  };
  // This test's own rows, whatever else the month holds: a donor approved (APRO) and one rejected (OTHE)
  // on the public form, one-time $ 1.500 each.
  const before = await ars();
  const paid = `tx.apro.${tag}@example.org`;
  const refused = `tx.othe.${tag}@example.org`;
  await page.goto(`/d/${campaign.slug}`);
  await fillDonationForm(page, { holder: 'APRO', email: paid, monthly: false });
  await page.getByRole('button', { name: 'Donar $ 1.500,00' }).click();
  await expect(page.getByTestId('thanks-message')).toBeVisible({ timeout: 20_000 });
  await page.goto(`/d/${campaign.slug}`);
  await fillDonationForm(page, { holder: 'OTHE', email: refused, monthly: false });
  await page.getByRole('button', { name: 'Donar $ 1.500,00' }).click();
  await expect(page.getByTestId('form-error')).toBeVisible({ timeout: 20_000 });

  await page.goto('/manage/transactions');
  await expect(page.getByRole('heading', { level: 1, name: 'Transacciones' })).toBeVisible();
  const after = await ars();
  // At least this test's charge in each bucket: the stack's worker may collect another organisation
  // donation (an earlier spec's monthly one) between the two reads; the rows below are this test's own.
  for (const bucket of ['approved', 'rejected'] as const) {
    expect(after[bucket].count).toBeGreaterThanOrEqual(before[bucket].count + 1);
    expect(after[bucket].amount.minor).toBeGreaterThanOrEqual(before[bucket].amount.minor + 150_000);
  }
  // Each bucket's rows hold this test's donation of that status (newest first, so on the first page).
  const rowOf = async (bucket: string, email: string) => {
    const res = await pageApi<{ transactions: Row[] }>(page, 'GET', `/manage/api/payment_transactions?status=${bucket}&currency=ARS`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.transactions.find((t) => t.donor.email === email);
  };
  const ok = (await rowOf('approved', paid))!;
  const ko = (await rowOf('rejected', refused))!;
  expect(ok).toMatchObject({ status: 'approved' });
  expect(ko).toMatchObject({ status: 'rejected' });
  expect(await rowOf('approved', refused)).toBeUndefined();
  expect(await rowOf('rejected', paid)).toBeUndefined();

  const rows = page.getByTestId('transaction-rows');
  const link = (uuid: string) => rows.locator(`a[href$="/manage/donations/${uuid}"]`);
  // Each bucket card shows the summary's figures; picking it lists this test's row of that status only.
  for (const [bucket, mine, other, label, otherLabel] of [
    ['approved', ok, ko, 'Aprobada', 'Rechazada'],
    ['rejected', ko, ok, 'Rechazada', 'Aprobada'],
  ] as const) {
    const card = page.locator(`[data-bucket="${bucket}"][data-currency="ARS"]`);
    await expect(card.locator('[data-amount]')).toHaveText(after[bucket].amount.formatted);
    await expect(card.locator('[data-count]')).toHaveAttribute('data-count', String(after[bucket].count));
    await card.click();
    await expect(page).toHaveURL(new RegExp(`status=${bucket}`));
    await expect(link(mine.donation_uuid)).toBeVisible();
    await expect(link(other.donation_uuid)).toHaveCount(0);
    await expect(rows).toContainText(label);
    await expect(rows).not.toContainText(otherLabel);
    if (bucket === 'approved') await screenshotAll(page, 'manage-transactions');
  }
});

test('English and Portuguese render the same screens', async ({ page }) => {
  await page.goto(`/manage/donations/${uuids.c}?locale=en`);
  await expect(page.getByRole('tab', { name: /Transactions/ })).toBeVisible();
  await page.goto('/manage/dashboard?locale=pt');
  // The widgets render once the Portuguese catalogue, the charts' chunk and the data have all
  // arrived: give a loaded machine more than the default 5 s.
  await expect(page.getByText('Total arrecadado').first()).toBeVisible({ timeout: 20_000 });
  await screenshotAll(page, 'manage-dashboard-pt');
});

test('donation detail: a form sent by someone else with the donor\'s e-mail shows what it sent; the donor stays', async ({ page }) => {
  test.setTimeout(90_000);
  const uuid = await donate(page, { ...donors.a, first: 'Mallory', last: 'Intrusa', amount: '500', monthly: false });
  await page.goto(`/manage/donations/${uuid}`);
  await expect(page.getByTestId('donor-card')).toContainText('Ana Pérez');
  const sent = page.getByTestId('submitted-donor-card');
  await expect(sent).toContainText('Datos enviados con esta donación');
  await expect(sent).toContainText('Mallory Intrusa');
  await screenshotAll(page, 'manage-donation-submitted');
  // The donor's own donation sent the donor's data: nothing to point out.
  await page.goto(`/manage/donations/${uuids.a}`);
  await expect(page.getByTestId('donor-card')).toContainText('Ana Pérez');
  await expect(page.getByTestId('submitted-donor-card')).toHaveCount(0);
});
