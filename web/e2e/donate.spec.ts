import { expect, test, type Page, type Request } from '@playwright/test';
import {
  createPublishedCampaign, fillDonationForm as fillForm, pageApi, sandboxPaymentsFor, screenshotAll, setGatewayLimits,
  shardValue, signedInWithCampaign, signIn, TEST_CVV as CVV, TEST_VISA as VISA, viewports, type CreatedCampaign,
} from './campaign-helpers';

test.describe.configure({ mode: 'serial', timeout: 90_000 });

const PAN = VISA.replace(/\s/g, '');
let campaign: CreatedCampaign;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(90_000);
  const set = await signedInWithCampaign(browser, `Comedor Los Girasoles ${Date.now().toString(36)}`);
  const page = set.page;
  campaign = set.campaign;
  await page.close();
});

/** Every request the page sends to our own origin, with its body (the tokeniser is the gateway's origin). */
function recordOwnRequests(page: Page, origin: string) {
  const seen: { url: string; method: string; body: string }[] = [];
  page.on('request', (r: Request) => {
    const u = new URL(r.url());
    if (u.origin === origin) seen.push({ url: r.url(), method: r.method(), body: r.postData() ?? '' });
  });
  return seen;
}

function assertNoCardData(seen: { url: string; body: string }[]) {
  for (const r of seen) {
    const text = r.url + ' ' + r.body;
    expect(text, `card number sent to ${r.url}`).not.toContain(PAN);
    expect(text).not.toContain(VISA);
    expect(r.body, `security code sent to ${r.url}`).not.toMatch(/"(security_code|cvv|cc_verification_number|card_number|cc_number)"/);
    expect(r.body).not.toContain(`"${CVV}"`);
  }
}

const uniqueEmail = (tag: string) => `ana.${tag}.${Date.now().toString(36)}@example.org`;

test('the form loads, validates in Spanish and counts the visit', async ({ page, baseURL }) => {
  await page.setViewportSize(viewports.phone);
  const visit = page.waitForRequest((r) => r.url().endsWith(`/api/public/campaigns/${campaign.slug}/visits`) && r.method() === 'POST');
  await page.goto(`/d/${campaign.slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(campaign.title);
  expect(JSON.parse((await visit).postData() ?? '{}')).toMatchObject({ campaign_id: campaign.uuid });
  await screenshotAll(page, 'donate-form');

  await page.getByRole('button', { name: /^Donar/ }).click();
  await expect(page.getByRole('alert')).toHaveText(/^Verific[aá] que todos los campos requeridos estén completos y sean válidos$/);
  await expect(page.getByLabel('Nombre', { exact: true })).toBeFocused();
  await expect(page.getByLabel('Nombre', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Este campo es requerido').first()).toBeVisible();

  // Other amount under the minimum.
  await page.locator('.amount.other').click();
  await page.getByLabel(/Ingres[aá] el monto/).fill('100');
  await page.getByRole('button', { name: /^Donar/ }).click();
  await expect(page.locator('#f-otherAmount-error')).toHaveText('El monto mínimo permitido es $ 500,00');
  await screenshotAll(page, 'donate-validation');
  expect(baseURL).toBeTruthy();
});

test('one-time donation approved (APRO) shows the thank-you message; no card data reaches our origin', async ({ page, baseURL }) => {
  const seen = recordOwnRequests(page, new URL(baseURL!).origin);
  await page.goto(`/d/${campaign.slug}`);
  const email = uniqueEmail('once');
  const lead = page.waitForRequest((r) => r.url().endsWith('/leads') && r.method() === 'POST');
  await fillForm(page, { holder: 'APRO', email, monthly: false, amountIndex: 1 });
  expect(JSON.parse((await lead).postData() ?? '{}')).toMatchObject({ email });
  await page.getByRole('button', { name: 'Donar $ 3.000,00' }).click();
  await expect(page).toHaveURL(new RegExp(`/d/${campaign.slug}/thanks\\?ref=[\\w-]{60,}$`));
  const thanks = `¡Gracias Ana! Tu aporte de $\u00a03.000,00 para ${campaign.title} ya está en camino.`;
  await expect(page.getByTestId('thanks-message')).toHaveText(thanks);
  await screenshotAll(page, 'donate-thanks');
  // The convert-to-monthly link: offered in this tab only (its single-use token is not in the address).
  const convert = page.getByRole('link', { name: /^¿(Quieres|Querés) que tu aporte sea mensual\?$/ });
  await expect(convert).toBeVisible();
  const convertURL = (await convert.getAttribute('href'))!;

  // The thank-you page comes from the server: a reload (or the shared link) shows it again, without
  // the donor's e-mail; a forged reference shows nothing of any donation.
  const thanksURL = page.url();
  await page.reload();
  await expect(page.getByTestId('thanks-message')).toHaveText(thanks);
  await expect(page.getByTestId('thanks-summary')).toContainText('$ 3.000,00');
  await expect(page.getByTestId('thanks-summary')).toContainText('Por única vez');
  await expect(page.locator('body')).not.toContainText(email);
  const forged = thanksURL.replace(/ref=(.)/, (_, c: string) => `ref=${c === 'A' ? 'B' : 'A'}`);
  await page.goto(forged);
  await expect(page.getByRole('alert')).toHaveText('No encontramos esta donación: el enlace no es válido o venció.');
  await expect(page.getByTestId('thanks-message')).toHaveCount(0);
  await page.goto(thanksURL);
  const posts = seen.filter((r) => r.method === 'POST' && r.url.endsWith(`/d/${campaign.slug}`));
  expect(posts).toHaveLength(1);
  expect(JSON.parse(posts[0]!.body)).toMatchObject({ donation: { recurrency: 0 }, payment_method: { method_id: 'visa', bin: '450995', last_four: '3704' } });
  assertNoCardData(seen);
  const payments = await sandboxPaymentsFor(email);
  expect(payments.map((p) => p.status)).toEqual(['approved']);

  // The shared thank-you link carries no convert token; the link from the form's tab converts once.
  await expect(page.getByTestId('thanks-message')).toHaveText(thanks);
  await expect(convert).toHaveCount(0);
  await page.goto(convertURL);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^(Convierte|Convertí) tu donación en mensual$/);
  await expect(page.getByText('$ 3.000,00 por mes')).toBeVisible();
  await screenshotAll(page, 'donate-convert');
  await page.getByRole('button', { name: 'Quiero donar todos los meses' }).click();
  await expect(page.getByRole('status')).toHaveText('¡Listo! Tu donación ahora es mensual. Gracias por tu compromiso.');
  await page.goto(convertURL);
  await expect(page.getByRole('alert')).toHaveText('El enlace no es válido o ya fue usado.');
});

test('monthly donation approved (APRO)', async ({ page, baseURL }) => {
  const seen = recordOwnRequests(page, new URL(baseURL!).origin);
  await page.goto(`/d/${campaign.slug}`);
  await fillForm(page, { holder: 'APRO', email: uniqueEmail('monthly'), monthly: true });
  await page.getByRole('button', { name: 'Donar $ 1.500,00 por mes' }).click();
  await expect(page.getByTestId('thanks-message')).toContainText('¡Gracias Ana! Tu aporte de $\u00a01.500,00');
  await expect(page.getByText('Tu donación mensual quedó activa')).toBeVisible();
  assertNoCardData(seen);
});

// MercadoPago's published Argentine test cards are named as the account's payment methods name them (the
// Mastercard 5031 was once shown as Maestro and refused) and approved with holder APRO.
for (const card of [
  { number: '5031 7557 3453 0604', brand: 'mastercard', name: 'Mastercard' },
  { number: '5287 3383 1025 3304', brand: 'debmaster', name: 'Mastercard Débito' },
]) {
  test(`MercadoPago's test card ${card.number} is shown as ${card.name} and approved`, async ({ page }) => {
    await page.goto(`/d/${campaign.slug}`);
    await fillForm(page, { holder: 'APRO', email: uniqueEmail(card.brand), monthly: false, card });
    await page.screenshot({ path: `test-results/donate-brand-${card.brand}.png` });
    await page.getByRole('button', { name: 'Donar $ 1.500,00' }).click();
    await expect(page.getByTestId('thanks-message')).toContainText('¡Gracias Ana!');
  });
}

for (const [holder, expected] of [
  ['OTHE', /rechaz/i],
  ['SECU', /código de seguridad/i],
] as const) {
  test(`rejection with ${holder} keeps the form and shows the gateway's message`, async ({ page, baseURL }) => {
      const seen = recordOwnRequests(page, new URL(baseURL!).origin);
    await page.goto(`/d/${campaign.slug}`);
    await fillForm(page, { holder, email: uniqueEmail(holder.toLowerCase()), monthly: false });
    await page.getByRole('button', { name: /^Donar/ }).click();
    const alert = page.getByTestId('form-error');
    await expect(alert).toBeVisible({ timeout: 20_000 });
    await expect(alert).toHaveText(expected);
    await expect(page).toHaveURL(new RegExp(`/d/${campaign.slug}$`));
    await expect(page.getByLabel('Correo electrónico')).not.toHaveValue('');
    if (holder === 'SECU') await screenshotAll(page, 'donate-rejected');
    assertNoCardData(seen);
  });
}

test('a card number typed into the document field is refused and marked there; a DNI too long has its own message', async ({ page }) => {
  const email = uniqueEmail('doc');
  await page.goto(`/d/${campaign.slug}`);
  await fillForm(page, { holder: 'APRO', email, monthly: false });
  const doc = page.getByLabel('Número de documento', { exact: true });
  await doc.fill(VISA);
  await page.getByRole('button', { name: /^Donar/ }).click();
  await expect(page.getByTestId('form-error')).toContainText('Por seguridad no recibimos números de tarjeta', { timeout: 20_000 });
  await expect(doc).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Parece un número de tarjeta: no lo escribas aquí')).toBeVisible();
  await screenshotAll(page, 'donate-card-in-document');
  expect(shardValue(`SELECT count(*) FROM donors WHERE email = '${email}'`)).toBe('0');

  await doc.fill('123456789');
  await page.getByRole('button', { name: /^Donar/ }).click();
  await expect(page.getByText('El número de documento es más largo de lo que permite el tipo elegido')).toBeVisible({ timeout: 20_000 });
  expect(shardValue(`SELECT count(*) FROM donors WHERE email = '${email}'`)).toBe('0');
});

test('a double click creates one donation and one payment', async ({ page, baseURL }) => {
  const seen = recordOwnRequests(page, new URL(baseURL!).origin);
  await page.goto(`/d/${campaign.slug}`);
  const email = uniqueEmail('double');
  await fillForm(page, { holder: 'APRO', email, monthly: false });
  await page.getByRole('button', { name: /^Donar/ }).dblclick();
  await expect(page.getByTestId('thanks-message')).toBeVisible({ timeout: 20_000 });
  const posts = seen.filter((r) => r.method === 'POST' && r.url.endsWith(`/d/${campaign.slug}`));
  expect(posts).toHaveLength(1);

  // Replaying the same submission (same idempotency key) returns the same donation and charges nothing new.
  const first = JSON.parse(posts[0]!.body) as { idempotency_key: string };
  await page.goto(`/d/${campaign.slug}`);
  const replay = await pageApi<{ donation: { uuid: string } }>(page, 'POST', `/d/${campaign.slug}`, first);
  expect([200, 201]).toContain(replay.status);
  const payments = await sandboxPaymentsFor(email);
  expect(payments).toHaveLength(1);
  expect(payments[0]!.status).toBe('approved');
});

test('extra form fields are validated, stored with the donation and shown in its detail', async ({ page }) => {
  await signIn(page);
  const withFields = await createPublishedCampaign(page, `Becas de estudio ${Date.now().toString(36)}`, {
    form_fields: [
      { type: 'occupation', title: 'Ocupación', label: '¿A qué te dedicas?', width: 'full', required: true },
      { type: 'alt_email', title: 'Otro correo', label: 'Otro correo', width: 'half', required: false },
      { type: 'gender', title: 'Género', label: 'Género', width: 'half', required: false },
    ],
  });
  await page.goto(`/d/${withFields.slug}`);
  await fillForm(page, { holder: 'APRO', email: uniqueEmail('fields'), monthly: false });
  await page.getByLabel('Otro correo').fill('no-es-correo');
  await page.getByRole('button', { name: /^Donar/ }).click();
  await expect(page.getByTestId('form-error')).toHaveText(/^Verific[aá] que todos los campos requeridos estén completos y sean válidos$/);
  await expect(page.locator('#f-extra\\.0-error')).toHaveText('Este campo es requerido');
  await expect(page.locator('#f-extra\\.1-error')).toHaveText(/^Ingres[aá] un correo electrónico válido$/);
  await screenshotAll(page, 'donate-extra-fields');

  await page.getByLabel('¿A qué te dedicas?').fill('Docente');
  await page.getByLabel('Otro correo').fill('ana.trabajo@example.org');
  await page.getByLabel('Género').selectOption({ label: 'Femenino' });
  const answer = page.waitForResponse((r) => r.url().endsWith(`/d/${withFields.slug}`) && r.request().method() === 'POST');
  await page.getByRole('button', { name: /^Donar/ }).click();
  const body = JSON.parse((await answer).request().postData() ?? '{}');
  expect(body.form_fields).toEqual([{ order: 0, value: 'Docente' }, { order: 1, value: 'ana.trabajo@example.org' }, { order: 2, value: 'female' }]);
  const uuid = ((await (await answer).json()) as { donation: { uuid: string } }).donation.uuid;
  await expect(page.getByTestId('thanks-message')).toBeVisible();

  const stored = JSON.parse(shardValue(`SELECT form_values FROM donations WHERE id = '${uuid}'`)) as { title: string; value: string }[];
  expect(stored.map((v) => [v.title, v.value])).toEqual([['Ocupación', 'Docente'], ['Otro correo', 'ana.trabajo@example.org'], ['Género', 'female']]);

  await page.goto(`/manage/donations/${uuid}`);
  const card = page.getByTestId('form-values-card');
  await expect(card).toContainText('Información adicional del formulario');
  await expect(card).toContainText('Ocupación');
  await expect(card).toContainText('Docente');
  await expect(card).toContainText('ana.trabajo@example.org');
  await expect(card).toContainText('Femenino');
  await screenshotAll(page, 'donation-detail-form-values');
});

test('the gateway\'s amount limits reach the form one second after it loads', async ({ page }) => {
  await setGatewayLimits({ min: 20, max: 7000 });
  try {
    const limits = page.waitForResponse((r) => r.url().includes('/v1/payment_methods?public_key=') && r.ok());
    await page.goto(`/d/${campaign.slug}`);
    await limits;
    await page.locator('.amount.other').click();
    await page.getByLabel(/Ingres[aá] el monto/).fill('7500');
    await page.getByRole('button', { name: /^Donar/ }).click();
    await expect(page.locator('#f-otherAmount-error')).toHaveText('El monto máximo permitido es $ 7.000,00');
    await page.getByLabel(/Ingres[aá] el monto/).fill('7000');
    await page.getByRole('button', { name: /^Donar/ }).click();
    await expect(page.locator('#f-otherAmount-error')).toHaveCount(0);
  } finally {
    await setGatewayLimits();
  }
});
