import { expect, test, type Page } from '@playwright/test';
import {
  ADMIN, createPublishedCampaign, DEMO_ORG, ensureEnabledOrg, fillDonationForm, outboxMail, pageApi, shardValue, signIn, type CreatedCampaign,
} from './campaign-helpers';
import { screenshotAll, viewports } from './screens';

// Issue #12's "done when": the demo organisation connects its own MercadoPago account through the sandbox
// gateway's authorization page (denied once first), takes a monthly donation into that account's ledger, loses
// the connection when the gateway refuses a refresh after a charge got 401 (needs reconnection + e-mail), reconnects, and after deleting
// it the public form is closed. Runs against the real stack (deploy/stack.sh test … with its env sourced).

test.describe.configure({ mode: 'serial', timeout: 120_000 });
test.use({ actionTimeout: 15_000 });

const GATEWAY = process.env.APORTA_GATEWAY_URL ?? '';
// A sandbox seller account of its own, so its ledger holds this run's payments only.
const NICKNAME = `GWWEB${Date.now().toString(36).toUpperCase()}`;

interface Connection { id: string; status: string; activated_at: string; account_name: string; live_mode: boolean }
interface GatewayRow { id: string; enabled: boolean; connection: Connection | null }

async function gateways(page: Page): Promise<GatewayRow[]> {
  const res = await pageApi<{ gateways: GatewayRow[] }>(page, 'GET', '/manage/api/payment_gateways');
  expect(res.status).toBe(200);
  return res.body.gateways;
}

const mercadopago = async (page: Page) => (await gateways(page)).find((g) => g.id === 'mercadopago')!;

async function sandbox<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${GATEWAY}${path}`, {
    method, headers: body ? { 'Content-Type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined,
  });
  expect(res.ok, `${method} ${path}: ${res.status}`).toBe(true);
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The sandbox account's user_id: the admin endpoint finds the account by nickname and site, as the page does. */
const sandboxUserId = async () => (await sandbox<{ user_id: number }>('POST', '/__sandbox/accounts', { nickname: NICKNAME, site_id: 'MLA' })).user_id;

/**
 * Presses the block's connect button (a form post to /auth/mercadopago), then decides on the sandbox's
 * authorization page; answers the authorization request's query.
 */
async function authorizeOnSandbox(page: Page, button: 'Seleccionar' | 'Reconectar', decision: 'approve' | 'deny'): Promise<URLSearchParams> {
  await page.locator('[data-gateway="mercadopago"]').getByRole('button', { name: button }).click();
  await expect(page.locator('#approve')).toBeVisible({ timeout: 20_000 });
  const query = new URL(page.url()).searchParams;
  if (decision === 'approve') {
    await page.locator('#nickname').fill(NICKNAME);
    await page.locator('#site_id').selectOption('MLA');
  }
  await page.locator(`#${decision}`).click();
  return query;
}

let campaign: CreatedCampaign;

test.beforeAll(async ({ browser }) => {
  ensureEnabledOrg();
  const page = await browser.newPage();
  await signIn(page);
  // Integrated payments another spec enabled move their block first: this run starts without them.
  shardValue(`DELETE FROM payment_processors WHERE organization_id = '${DEMO_ORG}'`);
  // The seed may have connected the demo organisation already: this run starts from no connection.
  for (const g of await gateways(page)) {
    if (g.connection) expect((await pageApi(page, 'DELETE', `/manage/api/payment_gateways/${g.connection.id}`)).status).toBe(204);
  }
  await page.close();
});

test.beforeEach(async ({ page }) => {
  await page.setViewportSize(viewports.desktop);
  await signIn(page);
});

test('connecting MercadoPago: a denial explains itself, an approval shows the account as active', async ({ page }) => {
  await page.goto('/manage/settings/gateways');
  await expect(page.getByRole('heading', { level: 1, name: 'Pasarelas de pago' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2 })).toHaveText(['Mercado Pago', 'CentralPos', 'Pagos integrados']);
  await expect(page.locator('[data-gateway="mercadopago"]')).toHaveAttribute('data-status', 'not_connected');
  await screenshotAll(page, 'gateways-settings');

  // Denied on the gateway: back on the page with a clear message, nothing stored, the address cleaned.
  const asked = await authorizeOnSandbox(page, 'Seleccionar', 'deny');
  expect(Object.fromEntries(['response_type', 'platform_id', 'code_challenge_method'].map((k) => [k, asked.get(k)]))).toEqual({
    response_type: 'code', platform_id: 'mp', code_challenge_method: 'S256',
  });
  expect(asked.get('state')).toBeTruthy();
  expect(asked.get('code_challenge')).toBeTruthy();
  expect(asked.get('redirect_uri')).toMatch(/\/auth\/mercadopago\/callback$/);
  await expect(page.getByRole('alert')).toContainText('No autorizaste la conexión');
  await expect(page).toHaveURL(/\/manage\/settings\/gateways$/);
  expect((await mercadopago(page)).enabled).toBe(false);
  await screenshotAll(page, 'gateways-denied');

  // Approved: the account is connected and shown with its activation date and name.
  const callback = page.waitForRequest((r) => r.url().includes('/auth/mercadopago/callback?'));
  await authorizeOnSandbox(page, 'Seleccionar', 'approve');
  const callbackURL = (await callback).url();
  await expect(page.getByRole('status').filter({ hasText: '¡Mercado Pago quedó conectada!' })).toBeVisible();
  await expect(page).toHaveURL(/\/manage\/settings\/gateways$/);
  const block = page.locator('[data-gateway="mercadopago"]');
  await expect(block).toHaveAttribute('data-status', 'active');
  await expect(block.getByText('Activa', { exact: true })).toBeVisible();
  await expect(block.locator('[data-field="account_name"]')).toContainText(NICKNAME);
  await expect(block.locator('[data-field="activated_at"]')).toHaveText(/^\p{L}+ \d{2}, \d{4} - \d{2}:\d{2}$/u);
  await screenshotAll(page, 'gateways-connected');

  // The callback replayed (the same code and state) is refused and changes nothing.
  const before = (await mercadopago(page)).connection!;
  await page.goto(callbackURL);
  await expect(page.getByRole('alert')).toContainText('La solicitud de conexión venció o ya se usó');
  expect((await mercadopago(page)).connection).toEqual(before);
});

test("a monthly donation on the public form is paid into the organisation's own account", async ({ page }) => {
  campaign = await createPublishedCampaign(page, `Huerta comunitaria ${Date.now().toString(36)}`);
  const email = `ana.gw.${Date.now().toString(36)}@example.org`;
  await page.goto(`/d/${campaign.slug}`);
  await fillDonationForm(page, { holder: 'APRO', email, monthly: true });
  await page.getByRole('button', { name: /^Donar .* por mes$/ }).click();
  await expect(page).toHaveURL(new RegExp(`/d/${campaign.slug}/thanks\\?ref=`));

  const userId = await sandboxUserId();
  const ledger = await sandbox<{ status: string; payer: { email?: string } }[]>('GET', `/__sandbox/payments?user_id=${userId}`);
  expect(ledger.filter((p) => p.payer?.email === email).map((p) => p.status)).toEqual(['approved']);
});

test('a revoked token refused at a donation marks the connection "needs reconnection", e-mails the admins, and Reconnect restores it', async ({ page }) => {
  // The account holder revokes Aporta's access: the next donation's calls get 401, which asks the connection's
  // refresh workflow to refresh now; the gateway refuses the refresh. The donor meanwhile gets a clear error (or,
  // when the refusal was already handled by the time they submit, the organisation's closed notice).
  await sandbox('POST', '/__sandbox/oauth/revoke', { user_id: await sandboxUserId() });
  await page.goto(`/d/${campaign.slug}`);
  await fillDonationForm(page, { holder: 'APRO', email: `bruno.gw.${Date.now().toString(36)}@example.org`, monthly: false });
  await page.getByRole('button', { name: /^Donar / }).click();
  await expect(page.getByText(/Hubo un error al intentar generar tu donación|no está recibiendo nuevas donaciones/)).toBeVisible({ timeout: 20_000 });
  await expect(page).not.toHaveURL(/\/thanks/);
  await expect.poll(async () => (await mercadopago(page)).connection?.status, { timeout: 60_000 }).toBe('needs_reconnection');

  await page.goto('/manage/settings/gateways');
  const block = page.locator('[data-gateway="mercadopago"]');
  await expect(block).toHaveAttribute('data-status', 'needs_reconnection');
  await expect(block.getByText('Requiere reconexión')).toBeVisible();
  await expect(block.getByText('La conexión dejó de funcionar')).toBeVisible();
  await screenshotAll(page, 'gateways-needs-reconnection');

  await expect
    .poll(() => outboxMail(page.request, ADMIN.email, 'gateway_needs_reconnection'), { timeout: 30_000 })
    .toMatch(new RegExp(`vuelve a conectar[\\s\\S]*${NICKNAME}[\\s\\S]*/manage/settings/gateways`));

  // Meanwhile the campaign's form takes no donations.
  await page.goto(`/d/${campaign.slug}`);
  await expect(page.getByRole('status')).toContainText('Esta campaña no está recibiendo donaciones en este momento');

  await page.goto('/manage/settings/gateways');
  await authorizeOnSandbox(page, 'Reconectar', 'approve');
  await expect(page.getByRole('status').filter({ hasText: '¡Mercado Pago quedó conectada!' })).toBeVisible();
  await expect(block).toHaveAttribute('data-status', 'active');
  await expect(block.locator('[data-field="account_name"]')).toContainText(NICKNAME);
});

test("deleting the connection closes the campaign's public form", async ({ page }) => {
  await page.goto('/manage/settings/gateways');
  await page.getByRole('button', { name: 'Eliminar Mercado Pago' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('irreversible');
  await screenshotAll(page, 'gateways-delete-confirm', false);
  await dialog.getByRole('button', { name: 'Eliminar' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('[data-gateway="mercadopago"]')).toHaveAttribute('data-status', 'not_connected');
  expect((await mercadopago(page)).enabled).toBe(false);

  await page.goto(`/d/${campaign.slug}`);
  await expect(page.getByRole('status')).toContainText('Esta campaña no está recibiendo donaciones en este momento');
  await expect(page.locator('[data-closed-reason="gateway_missing"]')).toBeVisible();
  await expect(page.getByLabel('Número de tarjeta')).toHaveCount(0);
  await screenshotAll(page, 'donate-closed');
  await page.goto(`/d/${campaign.slug}?locale=en`);
  await expect(page.getByRole('status')).toContainText('This campaign is not accepting donations at the moment');
});

test('CentralPos connects with an authorization code; an empty or unknown code is refused; the organisation then takes one-time and monthly donations through it', async ({ page }) => {
  await page.goto('/manage/settings/gateways');
  await page.getByRole('button', { name: /^CentralPos/ }).click();
  await page.locator('[data-gateway="centralpos"]').getByRole('button', { name: 'Seleccionar' }).click();
  const dialog = page.getByRole('dialog', { name: /Conectar CentralPos/ });
  await dialog.getByRole('button', { name: 'Autorizar' }).click();
  await expect(dialog.getByText('Ingresa el código de autorización.')).toBeVisible();
  await dialog.getByLabel(/Código de autorización/).fill('CP-NOT-A-CODE');
  await dialog.getByRole('button', { name: 'Autorizar' }).click();
  await expect(dialog.getByRole('alert')).toContainText('No pudimos conectar la pasarela');
  await screenshotAll(page, 'gateways-centralpos-modal', false);

  const { code } = await sandbox<{ code: string }>('POST', '/__sandbox/centralpos/codes', { legal_name: 'Fundación Demo SA', country: 'AR' });
  await dialog.getByLabel(/Código de autorización/).fill(code);
  await dialog.getByRole('button', { name: 'Autorizar' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: '¡CentralPos quedó conectada!' })).toBeVisible();
  const block = page.locator('[data-gateway="centralpos"]');
  await expect(block).toHaveAttribute('data-status', 'active');
  await expect(block.locator('[data-field="account_name"]')).toContainText('Fundación Demo SA');

  // CentralPos is now the organisation's only gateway (MercadoPago was deleted above): the public form tokenises
  // the card at CentralPos, from the browser, with the merchant's publishable key, and both donations are charged
  // in the merchant's ledger.
  const tokenised: string[] = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (r.method() === 'POST' && /\/(centralpos\/v1\/tokens|v1\/card_tokens)$/.test(path)) tokenised.push(path);
  });
  for (const monthly of [false, true]) {
    await page.goto(`/d/${campaign.slug}`);
    await fillDonationForm(page, { holder: 'APRO', email: `carla.cp.${Date.now().toString(36)}@example.org`, monthly });
    if (!monthly) await screenshotAll(page, 'donate-centralpos', false);
    await page.getByRole('button', { name: monthly ? /^Donar .* por mes$/ : /^Donar / }).click();
    await expect(page).toHaveURL(new RegExp(`/d/${campaign.slug}/thanks\\?ref=`), { timeout: 30_000 });
  }
  expect(tokenised).toEqual(['/centralpos/v1/tokens', '/centralpos/v1/tokens']);
  // The merchant just linked is the one the one-time donation (described by the campaign's title) was charged at;
  // its ledger holds both donations (the monthly one's first period may be charged by the collection workflow).
  type Charge = { merchant: string; state: string; description: string; reference: string };
  const ledger = async () => {
    const all = await sandbox<Charge[]>('GET', '/__sandbox/centralpos/charges');
    const merchant = all.find((c) => c.description === campaign.title)?.merchant;
    return all.filter((c) => c.merchant === merchant);
  };
  await expect.poll(async () => (await ledger()).map((c) => c.state), { timeout: 30_000 }).toEqual(['succeeded', 'succeeded']);
  expect((await ledger())[1]!.reference).toMatch(/^[0-9a-f-]{36}\/\d{4}-\d{2}$/); // the monthly donation's first period

  await page.goto('/manage/settings/gateways');
  await page.getByRole('button', { name: 'Eliminar CentralPos' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Eliminar' }).click();
  await expect(block).toHaveAttribute('data-status', 'not_connected');
});

test('the onboarding step connects a gateway and completes (leaving the demo organisation connected)', async ({ page }) => {
  await page.goto('/account/onboarding/payment_gateways');
  await expect(page.locator('[data-step="gateway"]')).toHaveAttribute('data-state', 'active');
  await expect(page.getByRole('link', { name: 'Seleccionar más tarde' })).toHaveAttribute('href', '/manage/dashboard');
  await dismissGuide(page);
  await screenshotAll(page, 'onboarding-gateways');

  await authorizeOnSandbox(page, 'Seleccionar', 'approve');
  await expect(page).toHaveURL(/\/account\/onboarding\/payment_gateways$/);
  await expect(page.getByRole('status').filter({ hasText: '¡Mercado Pago quedó conectada!' })).toBeVisible();
  await expect(page.locator('[data-step="gateway"]')).toHaveAttribute('data-state', 'completed');
  await expect(page.locator('[data-step="documents"]')).toHaveAttribute('data-state', 'active');
  await screenshotAll(page, 'onboarding-gateways-connected');
});

/** The onboarding guide opens once per organisation; close it if it is up. */
async function dismissGuide(page: Page) {
  const guide = page.getByRole('dialog');
  if (await guide.isVisible().catch(() => false)) {
    await guide.getByRole('button').last().click();
    await expect(guide).toBeHidden();
  }
}
