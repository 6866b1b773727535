// The donor portal and failed-payment recovery (issue 20) against the real test stack: a monthly donation whose
// card is declined e-mails the donor a link; the link opens the portal, a new card charges the period once; cancel
// offers a pause first and the donor pauses for two months; another donor's donation is refused. The approved charge
// has its receipt: the donor and the organisation download it (and the yearly summary) and its text is checked.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { outboxMail, pageApi, sandboxPaymentsFor, screenshotAll, signedInWithCampaign, signIn, TEST_CVV, TEST_VISA, type CreatedCampaign } from './campaign-helpers';

test.describe.configure({ mode: 'serial' });

const tag = Date.now().toString(36);
const ana = `ana.portal.${tag}@example.org`;
const bruno = `bruno.portal.${tag}@example.org`;
let campaign: CreatedCampaign;
const uuids = { ana: '', bruno: '' };

/** Tokenises a card at the sandbox gateway, as the public form does in the browser. */
async function token(holder: string) {
  const res = await fetch(`${process.env.APORTA_GATEWAY_URL}/v1/card_tokens`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ card_number: '4509953566233704', security_code: '123', expiration_month: 11, expiration_year: 2030, cardholder: { name: holder, identification: { type: 'DNI', number: '30123456' } } }),
  });
  const body = (await res.json()) as { id: string };
  expect(res.ok, JSON.stringify(body)).toBeTruthy();
  return body.id;
}

/** A monthly donation through the public form's API; the first period is charged by the collection workflow. */
async function donate(page: Page, email: string, holder: string) {
  const res = await pageApi<{ status: string; donation: { uuid: string } }>(page, 'POST', `/d/${campaign.slug}`, {
    donation: { recurrency: 1, items: [{ uuid: randomUUID(), amount: '1500', item_name: campaign.title, quantity: 1 }] },
    payment_method: {
      gateway: { name: 'mercadopago', token: await token(holder) }, method_id: 'visa', bin: '450995', last_four: '3704', expiration_month: 11, expiration_year: 2030,
      cardholder_name: holder, cardholder_id_type: 'DNI', cardholder_id_number: '30123456', donor_is_cardholder: true,
    },
    donor: { first_name: email.startsWith('ana') ? 'Ana' : 'Bruno', last_name: 'Portal', email, uid_type: 'DNI', uid_number: '30123456' },
    idempotency_key: randomUUID(),
  });
  expect([200, 201], JSON.stringify(res.body)).toContain(res.status);
  return res.body.donation.uuid;
}

/** Clicks a download link and answers the PDF's text as pdftotext reads it, spaces collapsed. */
async function downloadText(page: Page, link: Locator): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const pdf = readFileSync(await download.path());
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  return execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', '-', '-'], { input: pdf }).toString().replace(/\s+/g, ' ');
}

/** The e-mail of a kind the dev outbox holds for a recipient (subject and body), once it arrives. */
async function mail(request: APIRequestContext, to: string, kind: string): Promise<string> {
  let text = '';
  await expect.poll(async () => (text = await outboxMail(request, to, kind)), { timeout: 60_000, message: `a ${kind} e-mail to ${to}` }).not.toBe('');
  return text;
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  const set = await signedInWithCampaign(browser, `Portal del donante ${tag}`);
  const page = set.page;
  campaign = set.campaign;
  // FUND: the sandbox declines for insufficient funds; Bruno's card is fine.
  uuids.ana = await donate(page, ana, 'FUND');
  uuids.bruno = await donate(page, bruno, 'APRO');
  await page.close();
});

test('a declined monthly donation recovers with the donor\'s new card; cancel offers a pause; another donor\'s donation is refused', async ({ page, request }) => {
  test.setTimeout(180_000);
  // The workflow's first charge is declined: the donor gets a link into the portal.
  const declined = await mail(request, ana, 'donation_card_declined');
  expect(declined).toContain('fondos insuficientes');
  const link = /https?:\/\/\S+\/donor\/\S+\?token=\S+/.exec(declined)?.[0];
  expect(link, declined).toBeTruthy();
  await page.goto(new URL(link!).pathname + new URL(link!).search);

  await expect(page.getByRole('heading', { name: 'Mis donaciones' })).toBeVisible();
  await expect(page).not.toHaveURL(/token=/);
  const card = page.locator(`[data-donation="${uuids.ana}"]`);
  await expect(card.getByText('Rechazado · fondos insuficientes').first()).toBeVisible();
  await screenshotAll(page, 'portal-declined');

  // A new card, tokenised in the browser at the gateway: the period is charged at once, once.
  await card.getByRole('button', { name: 'Cambiar tarjeta' }).click();
  const dialog = page.getByRole('dialog');
  // The same Visa with a new expiry: another card for the gateway (the declined one was saved as 11/30).
  await dialog.getByLabel('Número de tarjeta').pressSequentially(TEST_VISA.replace(/\s/g, ''), { delay: 10 });
  await dialog.getByLabel('Vencimiento').pressSequentially('1231');
  await dialog.getByLabel('Código de seguridad').fill(TEST_CVV);
  await dialog.getByLabel(/Nombre del titular/).fill('APRO');
  await dialog.getByLabel('Número de documento').fill('30123456');
  await dialog.getByRole('button', { name: 'Guardar tarjeta' }).click();
  await expect(card.getByRole('status')).toContainText('Listo', { timeout: 30_000 });
  await expect.poll(async () => (await sandboxPaymentsFor(ana)).filter((p) => p.status === 'approved').length, { timeout: 30_000 }).toBe(1);
  await page.reload();
  await expect(card.getByText('Cobrado').first()).toBeVisible();
  await page.waitForTimeout(2_000);
  expect((await sandboxPaymentsFor(ana)).filter((p) => p.status === 'approved')).toHaveLength(1);

  // The approved charge has its receipt: the donor downloads it, with the legal data and the amount in words.
  const receiptLink = card.getByTestId('receipt-pdf').first();
  await expect(receiptLink).toBeVisible();
  await screenshotAll(page, 'portal-receipts');
  const receipt = await downloadText(page, receiptLink);
  for (const want of ['Recibo de donación N.º', 'Ana Portal', 'DNI 30123456', '$ 1.500,00 ARS', 'mil quinientos pesos', campaign.title]) {
    expect(receipt).toContain(want);
  }
  const summary = await downloadText(page, page.getByTestId('receipt-summary').first());
  expect(summary).toContain(`Resumen anual de donaciones ${new Date().getFullYear()}`);
  expect(summary).toContain('mil quinientos pesos');

  // Cancel asks first, and offers a pause instead: two months.
  await card.getByRole('button', { name: 'Cancelar donación' }).click();
  await expect(page.getByRole('dialog')).toContainText('¿Seguro que quieres cancelar?');
  await screenshotAll(page, 'portal-cancel-offers-pause');
  await page.getByRole('dialog').getByRole('button', { name: 'Pausar en su lugar' }).click();
  await page.getByRole('dialog').getByText('2 meses').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Pausar', exact: true }).click();
  // The pause answers once the workflow applied it (slow under a loaded test machine).
  await expect(card.getByText(/En pausa hasta el/)).toBeVisible({ timeout: 30_000 });
  await expect(card.getByRole('button', { name: 'Reanudar ahora' })).toBeVisible();
  await screenshotAll(page, 'portal-paused');

  // Another donor's donation: not found, and nothing changes.
  const other = await page.evaluate(async (id) => {
    const csrf = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
    const get = await fetch(`/api/public/portal/donations/${id}`, { signal: AbortSignal.timeout(30_000) });
    const pause = await fetch(`/api/public/portal/donations/${id}/pause`, {
      method: 'POST', headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf }, body: JSON.stringify({ months: 1 }),
      signal: AbortSignal.timeout(30_000),
    });
    return [get.status, pause.status];
  }, uuids.bruno);
  expect(other).toEqual([404, 404]);

  // Signing out ends the session on the server: the portal asks for a link again.
  await page.getByRole('button', { name: 'Salir' }).click();
  await expect(page.getByRole('button', { name: 'Enviarme el enlace' })).toBeVisible();
  expect(await page.evaluate(async () => (await fetch('/api/public/portal/donations', { signal: AbortSignal.timeout(30_000) })).status)).toBe(401);

  // The organisation sees the donor's changes as the donor's.
  await signIn(page);
  await page.goto(`/manage/donations/${uuids.ana}`);
  await expect(page.getByTestId('donation-transactions').getByText('fondos insuficientes').first()).toBeVisible({ timeout: 15_000 });
  await page.getByRole('tab', { name: /Cambios/ }).click();
  await expect(page.getByTestId('donation-versions').getByText('por el donante').first()).toBeVisible({ timeout: 15_000 });
  await screenshotAll(page, 'manage-donation-by-donor');
  // The organisation downloads the same receipt from the donation's transactions.
  await page.getByRole('tab', { name: /Transacciones/ }).click();
  await screenshotAll(page, 'manage-donation-receipts');
  const fromManage = await downloadText(page, page.getByTestId('donation-transactions').getByTestId('receipt-pdf').first());
  expect(fromManage).toContain('Ana Portal');
  expect(fromManage).toContain('mil quinientos pesos');
});

test('without a session the portal asks for the e-mail and answers the same for any address', async ({ page }) => {
  test.setTimeout(90_000); // screenshots in every viewport take long on a loaded machine
  await page.goto(`/donor/${campaign.slug}`);
  await page.getByLabel('E-mail').fill(`nadie.${tag}@example.org`);
  await page.getByRole('button', { name: 'Enviarme el enlace' }).click();
  await expect(page.getByRole('status')).toContainText('Si ese e-mail tiene donaciones');
  await screenshotAll(page, 'portal-ask-link');
});
