// Shared set-up for the campaign and donation browser tests against the real test stack
// (deploy/stack.sh test … with .data-testN/env sourced, so APORTA_* is in the environment).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { expect, type APIRequestContext, type Browser, type Page } from '@playwright/test';

export { SCREENS, screenshotAll, viewports } from './screens';

export const DEMO_ORG = '0a1b2c3d-0000-4000-8000-00000000a001';
export const ADMIN = { email: 'admin@demo.aporta.test', password: 'Demo-Aporta-2026' };

export function psql(dsn: string, sql: string): string {
  const bins = ['/usr/lib/postgresql/15/bin/psql', '/usr/bin/psql'];
  const bin = bins.find((b) => existsSync(b)) ?? 'psql';
  return execFileSync(bin, [dsn, '-v', 'ON_ERROR_STOP=1', '-qAtc', sql], { stdio: 'pipe', encoding: 'utf8' }).trim();
}

/** The AR shard, where the demo organisation lives. */
function arShard(): string {
  const shard = (process.env.APORTA_SHARD_DSNS ?? '').split(',').find((s) => s.startsWith('AR='))?.slice(3);
  if (!shard) throw new Error('APORTA_SHARD_DSNS has no AR shard');
  return shard;
}

/** One value (unaligned, tuples only) read from the AR shard. */
export function shardValue(sql: string): string {
  return psql(arShard(), sql);
}

/** Sets the card payment limits the sandbox gateway states (major units); no argument restores 10–8000. */
export async function setGatewayLimits(limits?: { min: number; max: number }) {
  const res = await fetch(`${process.env.APORTA_GATEWAY_URL}/__sandbox/limits`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(limits ?? {}),
  });
  expect(res.status).toBe(204);
}

/**
 * The test stack starts empty: `aporta seed` creates the demo organisation (AR) and its admin, and the
 * organisation is then enabled on a paid plan straight in its shard — the backend's own Go tests do the
 * same (api/campaign/session_test.go) because enabling through staff review needs every document approved.
 */
export function ensureEnabledOrg() {
  const root = process.env.APORTA_ROOT;
  if (!root) throw new Error('APORTA_ROOT is not set: run inside deploy/stack.sh test with .data-testN/env sourced');
  try {
    execFileSync(`${root}/bin/aporta`, ['seed'], { stdio: 'pipe', env: process.env });
  } catch {
    /* already seeded by an earlier spec in this run */
  }
  psql(arShard(), `UPDATE organizations SET status = 'enabled', plan_code = 'professional_monthly' WHERE organization_id = '${DEMO_ORG}'`);
  try {
    psql(process.env.APORTA_DIRECTORY_DSN ?? '', `UPDATE organizations SET status = 'enabled' WHERE id = '${DEMO_ORG}'`);
  } catch {
    /* the directory copy is informational */
  }
}

export async function signIn(page: Page) {
  await page.goto('/account/login');
  await page.locator('input[name="identifier"]').fill(ADMIN.email);
  await page.locator('input[name="password"]').fill(ADMIN.password);
  await page.locator('form button[type="submit"]').first().click();
  await expect(page).not.toHaveURL(/\/account\/login/, { timeout: 20_000 });
}

/** A same-origin API call from the signed-in page, with the page's CSRF token; page.evaluate has no timeout, the fetch has one. */
export async function pageApi<T>(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const token = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
      const res = await fetch(path, {
        method,
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-CSRF-Token': token },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      }).catch((e) => {
        throw new Error(`${method} ${path}: ${e}`);
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
    { method, path, body },
  );
}

/** MercadoPago's published Argentine test Visa, as the form shows it, and a security code for it. */
export const TEST_VISA = '4509 9535 6623 3704';
export const TEST_CVV = '123';

/** A card as the form should show it: its spaced number, the brand id and the name the gateway gives it. */
export interface TestCard { number: string; brand: string; name?: string }

/** Fills the public form (MercadoPago's test Visa unless another card is given); the holder name picks the sandbox's answer (APRO approves). */
export async function fillDonationForm(page: Page, o: { holder: string; email: string; monthly: boolean; amountIndex?: number; card?: TestCard }) {
  const card = o.card ?? { number: TEST_VISA, brand: 'visa' };
  if (!o.monthly) await page.getByRole('radio', { name: 'Por única vez' }).check({ force: true });
  await page.locator('.amount').nth(o.amountIndex ?? 0).click();
  await page.getByLabel('Nombre', { exact: true }).fill('Ana');
  await page.getByLabel('Apellido').fill('Gómez');
  await page.getByLabel('Correo electrónico').fill(o.email);
  await page.getByLabel('Número de documento', { exact: true }).fill('30123456');
  await page.getByLabel('Número de tarjeta').pressSequentially(card.number.replace(/\s/g, ''), { delay: 10 });
  await expect(page.locator(`[data-brand="${card.brand}"]`)).toBeVisible();
  if (card.name) await expect(page.locator(`[data-brand="${card.brand}"]`)).toHaveText(new RegExp(`${card.name}$`));
  await expect(page.getByLabel('Número de tarjeta')).toHaveValue(card.number);
  await page.getByLabel('Vencimiento').pressSequentially('1130');
  await expect(page.getByLabel('Vencimiento')).toHaveValue('11 / 30');
  await page.getByLabel('Código de seguridad').fill(TEST_CVV);
  await page.getByLabel(/Nombre del titular/).fill(o.holder);
}

export interface CreatedCampaign { uuid: string; slug: string; title: string; public_path: string }

/** Creates and publishes a fundraise campaign through the manage API; extra overrides its fields. */
export async function createPublishedCampaign(page: Page, title: string, extra: Record<string, unknown> = {}): Promise<CreatedCampaign> {
  const created = await pageApi<CreatedCampaign>(page, 'POST', '/manage/api/campaigns', {
    type: 'fundraise',
    title,
    description: 'Cada aporte mensual sostiene el comedor comunitario del barrio: alimentos frescos, cocineras y un lugar cálido para 120 chicos.',
    objective: 'Garantizar 120 almuerzos diarios durante todo el año.',
    amounts: [
      { amount: '1500', label: 'Una semana de almuerzos' },
      { amount: '3000', label: 'Un mes de frutas y verduras' },
      { amount: '6000', label: 'Un mes de almuerzos para un chico' },
    ],
    allow_one_time: true,
    allow_other_amount: true,
    min_other_amount: '500',
    form_color: '#7c3aed',
    thanks: { instant: '¡Gracias {nombre}! Tu aporte de {monto} para {campaña} ya está en camino.', email_subject: 'Gracias', email: 'Gracias {nombre}' },
    ...extra,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const published = await pageApi<CreatedCampaign & { published: boolean }>(page, 'POST', `/manage/api/campaigns/${created.body.uuid}/publish`);
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  return created.body;
}

/**
 * A serial spec's beforeAll start: the demo organisation enabled, a new page signed in as its administrator (on the
 * campaigns list) and a published campaign of that title. The caller closes the page when its set-up is done.
 */
export async function signedInWithCampaign(browser: Browser, title: string): Promise<{ page: Page; campaign: CreatedCampaign }> {
  ensureEnabledOrg();
  const page = await browser.newPage();
  await signIn(page);
  await page.goto('/manage/campaigns');
  return { page, campaign: await createPublishedCampaign(page, title) };
}

/** The first e-mail of a template the dev outbox holds for a recipient, as its subject and body; '' until it arrives (for expect.poll). */
export async function outboxMail(request: APIRequestContext, to: string, template: string): Promise<string> {
  const res = await request.get(`/dev/api/outbox?to=${encodeURIComponent(to)}`);
  if (!res.ok()) return '';
  const { messages } = (await res.json()) as { messages: { template_type: string; subject: string; body: string }[] };
  const mail = messages.find((m) => m.template_type === template);
  return mail ? `${mail.subject}\n${mail.body}` : '';
}

export async function sandboxPaymentsFor(email: string): Promise<{ id: number; status: string; payer: { email?: string } }[]> {
  const res = await fetch(`${process.env.APORTA_GATEWAY_URL}/__sandbox/payments`);
  const all = (await res.json()) as { id: number; status: string; payer: { email?: string } }[];
  return all.filter((p) => p.payer?.email === email);
}
