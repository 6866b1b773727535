import { createHmac } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { createPublishedCampaign, ensureEnabledOrg, fillDonationForm, signIn } from './campaign-helpers';
import { screenshotAll, viewports } from './screens';

// Issue #20's webhooks: the demo organisation registers an endpoint at the sandbox's webhook receiver (a box of this
// run's own), a donation on the public form is delivered to it signed, the delivery shows in the log, and "Reenviar"
// delivers the same event again. Runs against the real stack (deploy/stack.sh test … with its env).

test.describe.configure({ mode: 'serial', timeout: 180_000 });
test.use({ actionTimeout: 15_000 });

const CRM = process.env.APORTA_SANDBOX_CRM_URL ?? '';

interface Received {
  at: string;
  headers: Record<string, string>;
  body: string;
  status: number;
}

const received = async (box: string) => {
  const res = await fetch(`${CRM}/__webhooks/${box}`);
  expect(res.ok).toBe(true);
  return ((await res.json()) as { deliveries: Received[] }).deliveries;
};

/** The check a receiver makes (docs/webhooks.md): HMAC-SHA256 of "t.body" with the secret, and a recent t. */
function verify(secret: string, d: Received) {
  const parts = Object.fromEntries((d.headers['Aporta-Signature'] ?? '').split(',').map((p) => p.split('=') as [string, string]));
  expect(Math.abs(Date.now() / 1000 - Number(parts.t))).toBeLessThan(300);
  expect(parts.v1).toBe(createHmac('sha256', secret).update(`${parts.t}.${d.body}`).digest('hex'));
}

test('an endpoint gets a donation signed, the log shows it and resending delivers it again', async ({ page }) => {
  expect(CRM, 'APORTA_SANDBOX_CRM_URL').not.toBe('');
  ensureEnabledOrg();
  const box = `e2e-${Date.now().toString(36)}`;
  await page.setViewportSize(viewports.desktop);
  await signIn(page);

  await page.goto('/manage/settings/webhooks');
  await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();

  // An address inside a private network is refused, in the user's language.
  await page.getByLabel('Dirección del endpoint').fill('https://10.0.0.8/hooks');
  await page.getByRole('button', { name: 'Agregar endpoint' }).click();
  await expect(page.getByText('Esa dirección apunta a una red privada o local')).toBeVisible();
  await screenshotAll(page, 'webhooks-refused');

  // The sandbox receiver (allowed on loopback by the test stack's configuration): the secret is shown once.
  await page.getByLabel('Dirección del endpoint').fill(`${CRM}/__webhooks/${box}`);
  await page.getByLabel('Descripción (opcional)').fill('Nuestro CRM');
  await page.getByRole('checkbox', { name: /Donación modificada/ }).uncheck();
  await page.getByRole('button', { name: 'Agregar endpoint' }).click();
  const modal = page.getByRole('dialog', { name: /El secreto del endpoint/ });
  await expect(modal).toBeVisible({ timeout: 20_000 }); // creation checks the address and starts the endpoint's workflow
  const secret = (await modal.getByTestId('webhook-secret').textContent())!.trim();
  expect(secret).toMatch(/^whsec_/);
  await screenshotAll(page, 'webhooks-secret', false);
  await modal.getByRole('button', { name: 'Ya lo guardé' }).click();
  await expect(modal).toBeHidden();
  const card = page.getByRole('region', { name: `${CRM}/__webhooks/${box}` });
  await expect(card.getByText('Todavía no hubo eventos para este endpoint.')).toBeVisible();
  await expect(page.getByText(secret)).toHaveCount(0);

  // A one-time donation on the public form: donation.created and charge.approved reach the receiver, signed.
  const campaign = await createPublishedCampaign(page, `Webhooks ${Date.now().toString(36)}`);
  const email = `ana.hooks.${Date.now().toString(36)}@example.org`;
  await page.goto(`/d/${campaign.slug}`);
  await fillDonationForm(page, { holder: 'APRO', email, monthly: false });
  await page.getByRole('button', { name: /^Donar / }).click();
  await expect(page).toHaveURL(new RegExp(`/d/${campaign.slug}/thanks\\?ref=`));

  await expect.poll(async () => (await received(box)).map((d) => d.headers['Aporta-Event']).sort(), { timeout: 60_000 }).toEqual([
    'charge.approved',
    'donation.created',
  ]);
  const first = await received(box);
  for (const d of first) verify(secret, d);
  const created = first.find((d) => d.headers['Aporta-Event'] === 'donation.created')!;
  expect(JSON.parse(created.body).data.amount).toEqual({ minor: 150000, currency: 'ARS' });

  // The log shows both deliveries, delivered with HTTP 200.
  await page.goto('/manage/settings/webhooks');
  const log = card.getByTestId('webhook-deliveries');
  await expect(log.getByRole('row', { name: /Donación creada/ })).toContainText('Entregado', { timeout: 15_000 });
  await expect(log.getByRole('row', { name: /Cobro aprobado/ })).toContainText('HTTP 200');
  await screenshotAll(page, 'webhooks-log');

  // Resend the donation.created delivery: the same event, a new delivery, signed again.
  await log.getByRole('row', { name: /Donación creada/ }).getByRole('button', { name: 'Reenviar' }).click();
  await expect.poll(async () => (await received(box)).length, { timeout: 30_000 }).toBe(3);
  const again = (await received(box))[2]!;
  expect(again.headers['Aporta-Event-Id']).toBe(created.headers['Aporta-Event-Id']);
  expect(again.headers['Aporta-Delivery']).not.toBe(created.headers['Aporta-Delivery']);
  expect(again.body).toBe(created.body);
  verify(secret, again);
  await expect(log.getByText('reenvío')).toBeVisible({ timeout: 15_000 });
  await expect(log.getByRole('row')).toHaveCount(4); // the header and three deliveries

  // Removed, so the demo organisation's later specs do not feed this run's box.
  await card.getByRole('button', { name: 'Eliminar' }).click();
  await page.getByRole('dialog', { name: /¿Eliminar este endpoint/ }).getByRole('button', { name: 'Eliminar' }).click();
  await expect(card).toHaveCount(0);
});
