import { expect, test, type Page } from '@playwright/test';
import { createPublishedCampaign, ensureEnabledOrg, fillDonationForm, pageApi, signIn } from './campaign-helpers';
import { screenshotAll, viewports } from './screens';

// Issue #16's "done when": the demo organisation connects the sandbox CRM (a Salesforce org of this run's own),
// maps donor e-mail and last name to Contact and the donation's amount and status (with a value mapping) to the
// NPSP recurring donation, takes a monthly donation that appears in the CRM, pauses it and sees "Paused" there,
// and the request log shows the calls. Runs against the real stack (deploy/stack.sh test … with its env).

test.describe.configure({ mode: 'serial', timeout: 180_000 });
test.use({ actionTimeout: 15_000 });

const CRM = process.env.APORTA_SANDBOX_CRM_URL ?? '';
type CrmRecord = Record<string, unknown>;

async function crmAdmin<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${CRM}${path}`, { method, headers: body ? { 'Content-Type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
  expect(res.ok, `${method} ${path}: ${res.status}`).toBe(true);
  return (await res.json()) as T;
}

const records = async (clientId: string, sobject: string) =>
  (await crmAdmin<{ records: CrmRecord[] }>('GET', `/__sandbox/orgs/${clientId}/records/${sobject}`)).records;

/** Picks an option of the Mantine select labelled `name` inside the new-mapping form. */
async function choose(page: Page, name: string, option: string | RegExp) {
  const form = page.getByRole('form', { name: 'Agregar mapeo' });
  await form.getByRole('combobox', { name, exact: true }).click();
  await page.getByRole('option', { name: option }).first().click();
}

test('setting up the sandbox CRM, a donation and its pause appear there, and the log shows the calls', async ({ page }) => {
  expect(CRM, 'APORTA_SANDBOX_CRM_URL').not.toBe('');
  ensureEnabledOrg();
  const org = await crmAdmin<{ client_id: string; client_secret: string }>('POST', '/__sandbox/orgs', {});
  await page.setViewportSize(viewports.desktop);
  await signIn(page);

  await page.goto('/manage/settings/integrations');
  await expect(page.getByRole('heading', { level: 1, name: 'Integraciones con CRM' })).toBeVisible();
  await page.getByLabel('Dirección de inicio de sesión').fill(CRM);
  await page.getByLabel('Client id de la app conectada').fill(org.client_id);
  await page.getByLabel('Client secret').fill('not-the-secret');
  await page.getByRole('button', { name: 'Conectar CRM' }).click();
  await expect(page.getByText('El CRM rechazó el client id o el client secret.')).toBeVisible();
  await screenshotAll(page, 'crm-connect-refused');
  await page.getByLabel('Client secret').fill(org.client_secret);
  await page.getByRole('button', { name: 'Conectar CRM' }).click();
  await expect(page).toHaveURL(/\/manage\/settings\/integrations\/[0-9a-f-]{36}$/, { timeout: 20_000 });
  const uuid = page.url().split('/').pop()!;
  await expect(page.getByRole('heading', { level: 1, name: 'Salesforce' })).toBeVisible();

  // Donor e-mail to Contact through the form.
  await choose(page, 'Atributo', 'Correo electrónico');
  await choose(page, 'Campo del CRM', /^Email \(Email\)$/);
  await page.getByRole('form', { name: 'Agregar mapeo' }).getByRole('button', { name: 'Agregar mapeo' }).click();
  await expect(page.getByRole('cell', { name: 'Donante · Correo electrónico' })).toBeVisible({ timeout: 15_000 });

  // The donation's status to the recurring donation's picklist: refused until every status is mapped.
  await choose(page, 'Qué', 'Donación');
  await choose(page, 'Atributo', 'Estado');
  await choose(page, 'Objeto del CRM', /^Donación recurrente/);
  await choose(page, 'Campo del CRM', /^Status \(npsp__Status__c\)$/);
  await page.getByRole('form', { name: 'Agregar mapeo' }).getByRole('button', { name: 'Agregar mapeo' }).click();
  await expect(page.getByRole('alert')).toContainText('Traduce estos valores a opciones de la lista npsp__Status__c');
  for (const [ours, theirs] of [['pending', 'Active'], ['active', 'Active'], ['paused', 'Paused'], ['discarded', 'Closed'], ['rejected', 'Closed']]) {
    await page.getByRole('form', { name: 'Agregar mapeo' }).getByRole('combobox', { name: ours, exact: true }).click();
    await page.getByRole('option', { name: theirs, exact: true }).click();
  }
  await page.getByRole('form', { name: 'Agregar mapeo' }).getByRole('button', { name: 'Agregar mapeo' }).click();
  await expect(page.getByRole('cell', { name: 'Donación · Estado' })).toBeVisible({ timeout: 15_000 });

  // The last name (Contact's required field) and the amount, through the same API.
  const base = `/manage/settings/integrations/${uuid}`;
  for (const rule of [
    { class_name: 'donor', attribute: 'last_name', crm_object: 'contact', field: 'LastName', sync_rule: 'always_override', value_map: {} },
    { class_name: 'donation', attribute: 'amount', crm_object: 'recurring_donation', field: 'npe03__Amount__c', sync_rule: 'always_override', value_map: {} },
  ]) {
    const res = await pageApi(page, 'POST', `${base}/rules`, rule);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  await page.reload();
  await expect(page.getByRole('cell', { name: 'Donación · Monto' })).toBeVisible({ timeout: 15_000 });
  await screenshotAll(page, 'crm-setup');

  // A monthly donation on the public form lands in the CRM as a contact and an active recurring donation.
  const campaign = await createPublishedCampaign(page, `CRM ${Date.now().toString(36)}`);
  const email = `ana.crm.${Date.now().toString(36)}@example.org`;
  await page.goto(`/d/${campaign.slug}`);
  await fillDonationForm(page, { holder: 'APRO', email, monthly: true });
  await page.getByRole('button', { name: /^Donar .* por mes$/ }).click();
  await expect(page).toHaveURL(new RegExp(`/d/${campaign.slug}/thanks\\?ref=`));

  let contact: CrmRecord | undefined;
  await expect
    .poll(async () => (contact = (await records(org.client_id, 'Contact')).find((c) => c.Email === email)), { timeout: 60_000 })
    .toBeTruthy();
  expect(contact!.LastName).toBe('Gómez');
  const rdOf = async () => (await records(org.client_id, 'npe03__Recurring_Donation__c')).find((r) => r.npe03__Contact__c === contact!.Id);
  await expect.poll(async () => (await rdOf())?.npsp__Status__c, { timeout: 60_000 }).toBe('Active');
  const rd = (await rdOf())!;
  expect(rd.npe03__Amount__c).toBe(1500);

  // Paused in the manage area: the CRM's status follows, through the value mapping.
  const paused = await pageApi(page, 'POST', `/manage/api/donations/${String(rd.Aporta_Id__c)}/pause`, { reason: 'by_org' });
  expect(paused.status, JSON.stringify(paused.body)).toBe(200);
  await expect.poll(async () => (await rdOf())?.npsp__Status__c, { timeout: 60_000 }).toBe('Paused');
  expect((await records(org.client_id, 'npe03__Recurring_Donation__c')).filter((r) => r.npe03__Contact__c === contact!.Id)).toHaveLength(1);

  // The request log shows the calls, with the budget left.
  await page.goto(`/manage/settings/integrations/${uuid}`);
  const log = page.getByTestId('crm-requests');
  await expect(log.getByRole('cell', { name: /^Envío/ }).first()).toBeVisible();
  await expect(log.getByText('Correcta').first()).toBeVisible();
  await screenshotAll(page, 'crm-log');

  // Paused again so the demo organisation's later specs do not feed this run's CRM.
  expect((await pageApi(page, 'PATCH', `${base}/setup`, { status: 'paused' })).status).toBe(200);
});
