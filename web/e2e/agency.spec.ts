// External teams (issue 15), the done-when: the organisation creates a live agency with a
// one-minute delay and one campaign and adds an operator with acquisition only; the operator, on a
// phone, signs a donor up; the donation is not the organisation's until the delay passes, then it is,
// charged once; the operator cannot change its amount (the 403 shown in the dialog) until the
// organisation grants management; a second (practice) agency sees none of it and its sign-ups are
// never charged; discarding the agency signs the operator out.
import { expect as baseExpect, test, type Browser, type Page } from '@playwright/test';
import { createPublishedCampaign, ensureEnabledOrg, pageApi, screenshotAll, signIn, viewports } from './campaign-helpers';

test.use({ actionTimeout: 15_000, trace: 'off' });
// Two stacks' worth of pages on a loaded machine: assertions wait longer than the default 5 s.
const expect = baseExpect.configure({ timeout: 15_000 });

const AGENT_PASSWORD = 'Agente-Calle-2026';

/** Gives the new agent a password through Kratos's admin API, as choosing it by recovery code would. */
async function setPassword(email: string) {
  const admin = process.env.APORTA_KRATOS_ADMIN_URL;
  const found = (await (await fetch(`${admin}/admin/identities?credentials_identifier=${encodeURIComponent(email)}`)).json()) as { id: string; schema_id: string; traits: unknown }[];
  expect(found).toHaveLength(1);
  const { id, schema_id, traits } = found[0]!;
  const res = await fetch(`${admin}/admin/identities/${id}`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ schema_id, traits, state: 'active', credentials: { password: { config: { password: AGENT_PASSWORD } } } }),
  });
  expect(res.status).toBe(200);
}

/** Signs an agency person in on a phone, where the work area lands. */
async function agentOnPhone(browser: Browser, email: string, agencyName: string): Promise<Page> {
  await setPassword(email);
  const phone = await browser.newContext({ viewport: viewports.phone, locale: 'es-AR' });
  const agent = await phone.newPage();
  await agent.goto('/agency');
  await expect(agent).toHaveURL(/\/account\/login/, { timeout: 20_000 });
  await agent.locator('input[name="identifier"]').fill(email);
  await agent.locator('input[name="password"]').fill(AGENT_PASSWORD);
  await agent.locator('form button[type="submit"]').first().click();
  await expect(agent.getByRole('heading', { name: agencyName })).toBeVisible({ timeout: 20_000 });
  return agent;
}

/** Fills the work area's sign-up form and submits it (the amount chip's text, e.g. "$ 3.000"). */
async function signDonorUp(agent: Page, donor: { first: string; last: string; amount: RegExp }) {
  await agent.getByText(donor.amount).click();
  await agent.getByRole('textbox', { name: /^Nombre\s*\*?$/ }).fill(donor.first);
  await agent.getByLabel('Apellido').fill(donor.last);
  await agent.getByLabel('E-mail').fill(`${donor.first.toLowerCase()}.${Date.now().toString(36)}@example.org`);
  await agent.getByLabel('Documento (DNI)').fill('30111222');
  await agent.getByLabel('Número de tarjeta').fill('4509953566233704');
  await agent.getByLabel('Vencimiento').pressSequentially('1130');
  await agent.getByLabel('Código de seguridad').fill('123');
  await agent.getByLabel('Nombre del titular').fill('APRO');
  await agent.getByRole('button', { name: 'Registrar donante' }).click();
}

interface DonationPage { donations: { uuid: string; donor: { first_name: string } }[]; total: number }

async function chooseOption(page: Page, label: RegExp | string, option: string) {
  await page.getByRole('dialog').getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('an agency signs a donor up on a phone: delayed sync, one charge, management by grant, isolation, practice, sign-out', async ({ page, browser }) => {
  test.setTimeout(420_000);
  ensureEnabledOrg();
  await signIn(page);
  const campaign = await createPublishedCampaign(page, `Calle ${Date.now().toString(36)}`);

  // The organisation's administrator: a live agency with a one-minute delay and one campaign.
  await page.goto('/manage/settings/agencies');
  await expect(page.getByRole('heading', { name: 'Equipos externos' })).toBeVisible();
  await page.getByRole('button', { name: 'Nuevo equipo' }).click();
  const dialog = page.getByRole('dialog');
  const name = `Equipo Calle ${Date.now().toString(36)}`;
  await dialog.getByRole('textbox', { name: /Nombre del equipo/ }).fill(name);
  await dialog.getByText('Real', { exact: true }).click();
  await chooseOption(page, /Demora de sincronización/, '1 minuto');
  await dialog.getByRole('button', { name: 'Crear equipo' }).click();
  await expect(page.getByRole('heading', { name })).toBeVisible({ timeout: 20_000 });
  const agencyId = new URL(page.url()).pathname.split('/').pop()!;
  const agencyPage = page.url();

  await page.getByRole('button', { name: 'Asociar campaña' }).click();
  await chooseOption(page, 'Campaña', campaign.title);
  const amounts = page.getByRole('dialog').getByRole('combobox', { name: 'Montos disponibles' });
  await amounts.fill('1500');
  await amounts.press('Enter');
  await amounts.fill('3000');
  await amounts.press('Enter');
  await page.getByRole('dialog').getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByRole('row').filter({ hasText: campaign.title })).toContainText('$ 3.000');

  // An operator with acquisition only.
  const email = `agente.${Date.now().toString(36)}@example.org`;
  await page.getByRole('button', { name: 'Nueva persona' }).click();
  const person = page.getByRole('dialog');
  await person.getByRole('textbox', { name: /^Nombre/ }).fill('Olga');
  await person.getByLabel('Apellido').fill('Operadora');
  await person.getByLabel('E-mail').fill(email);
  await expect(person.getByLabel(/Captación/)).toBeChecked();
  await expect(person.getByLabel(/Gestión/)).not.toBeChecked();
  await person.getByRole('button', { name: 'Guardar' }).click();
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row.getByText('Activo')).toBeVisible();
  await expect(row.getByText('Captación')).toBeVisible();
  await screenshotAll(page, 'settings-agency');

  // A second agency, in practice mode, on the same campaign, with its own operator.
  const practiceName = `Equipo Práctica ${Date.now().toString(36)}`;
  const practice = await pageApi<{ agency: { uuid: string } }>(page, 'POST', '/manage/api/agencies', { account: { agency_name: practiceName, mode: 'sandbox', sync_delay: 0 } });
  expect(practice.status).toBe(201);
  const practiceId = practice.body.agency.uuid;
  expect((await pageApi(page, 'POST', `/manage/api/agencies/${practiceId}/campaigns/${campaign.uuid}`, { allow_one_time: false, allow_other_amount: false, amounts: ['1500'] })).status).toBe(200);
  const practiceEmail = `practica.${Date.now().toString(36)}@example.org`;
  const added = await pageApi(page, 'POST', `/manage/api/agencies/${practiceId}/users`, {
    email: practiceEmail, first_name: 'Pía', last_name: 'Practicante', role: 'operator', acquisition: true, management: false,
  });
  expect(added.status).toBe(201);
  await page.goto('/manage/settings/agencies');
  await expect(page.getByRole('link', { name })).toBeVisible();
  await screenshotAll(page, 'settings-agencies');

  // The operator, on a phone, signs Dora up: it waits its delay.
  const agent = await agentOnPhone(browser, email, name);
  await screenshotAll(agent, 'agency-work-area-empty', false);
  await signDonorUp(agent, { first: 'Dora', last: 'Donante', amount: /^\$\s3\.000(,00)?$/ });
  const signUp = agent.locator('[data-acquisition]').filter({ hasText: 'Dora Donante' });
  await expect(signUp.getByText('En espera')).toBeVisible({ timeout: 20_000 });
  await expect(signUp).toContainText('$ 3.000');
  await expect(signUp.getByText(/Pasa a la organización/)).toBeVisible();
  await screenshotAll(agent, 'agency-work-area');
  // The operator is nobody in the organisation's manage area.
  expect((await agent.request.get('/manage/api/donations')).status()).toBe(403);
  // The operator starts correcting the amount while it waits, and leaves the dialog open past the delay.
  await signUp.getByRole('button', { name: 'Cambiar monto' }).click();
  const amountDialog = agent.getByRole('dialog');
  await amountDialog.getByLabel(/Monto/).fill('2000');

  // Not the organisation's while it waits.
  await page.goto(`/manage/donations?agency=${agencyId}`);
  await expect(page.getByText('Ninguna donación coincide con los filtros')).toBeVisible();
  const donations = async (agency: string) => (await pageApi<DonationPage>(page, 'GET', `/manage/api/donations?agency=${agency}`)).body;
  expect((await donations(agencyId)).total).toBe(0);

  // Once the delay passes it is, charged once.
  await expect.poll(async () => (await donations(agencyId)).total, { timeout: 150_000, intervals: [5_000] }).toBe(1);
  const donationId = (await donations(agencyId)).donations[0]!.uuid;
  await page.reload();
  await expect(page.getByRole('row').filter({ hasText: 'Dora Donante' })).toContainText(name);
  const detail = async () => (await pageApi<{ donation: { amount: { minor: number } }; transactions: { status: string }[] }>(page, 'GET', `/manage/api/donations/${donationId}`)).body;
  await expect.poll(async () => (await detail()).transactions.filter((t) => t.status === 'approved').length, { timeout: 30_000 }).toBe(1);
  expect((await detail()).transactions).toHaveLength(1);

  // The dashboard's agency filter counts it.
  const board = (await pageApi<{ new_donations: number; visits: number; filters: { agency: string } }>(page, 'GET', `/manage/api/dashboard?agency=${agencyId}`)).body;
  expect(board).toMatchObject({ new_donations: 1, visits: 0, filters: { agency: agencyId } });
  await page.goto(`/manage/dashboard?agency=${agencyId}`);
  await expect(page.getByRole('combobox', { name: 'Equipo externo' })).toBeVisible();
  await screenshotAll(page, 'dashboard-agency');

  // Synced without the management grant: the correction is refused (403) and says so in the dialog.
  await amountDialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(amountDialog.getByRole('alert')).toContainText(/No ten[ée]s permiso para realizar esta acción/);
  await amountDialog.getByRole('button', { name: 'Cancelar' }).click();
  await agent.reload();
  await expect(signUp.getByText('Sincronizada')).toBeVisible({ timeout: 20_000 });
  await expect(signUp.getByRole('button', { name: 'Cambiar monto' })).toHaveCount(0);
  expect((await detail()).donation.amount.minor).toBe(300000);

  // The organisation grants management: the operator changes the amount, once.
  await page.goto(agencyPage);
  await page.getByRole('button', { name: /Editar a Olga Operadora/ }).click();
  await page.getByRole('dialog').getByLabel(/Gestión/).check();
  await page.getByRole('dialog').getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByRole('row').filter({ hasText: email }).getByText('Gestión')).toBeVisible();
  await agent.reload();
  await signUp.getByRole('button', { name: 'Cambiar monto' }).click();
  await agent.getByRole('dialog').getByLabel(/Monto/).fill('2000');
  await screenshotAll(agent, 'agency-change-amount', false);
  await agent.getByRole('dialog').getByRole('button', { name: 'Guardar' }).click();
  await expect(agent.getByRole('dialog')).toHaveCount(0);
  await expect.poll(async () => (await detail()).donation.amount.minor).toBe(200000);
  await expect(signUp).toContainText('$ 2.000');
  await expect(signUp.getByRole('button', { name: 'Pausar' })).toBeVisible();
  await screenshotAll(agent, 'agency-manage');
  expect((await detail()).transactions).toHaveLength(1);

  // The practice agency's operator sees none of it, and practice sign-ups are never charged.
  const other = await agentOnPhone(browser, practiceEmail, practiceName);
  await expect(other.getByText('Modo práctica')).toBeVisible();
  await expect(other.locator('[data-acquisition]').filter({ hasText: 'Dora Donante' })).toHaveCount(0);
  expect((await pageApi(other, 'POST', `/agency/api/acquisitions/${donationId}/pause`, { reason: '' })).status).toBe(404);
  await signDonorUp(other, { first: 'Pedro', last: 'Practica', amount: /^\$\s1\.500(,00)?$/ });
  const practiced = other.locator('[data-acquisition]').filter({ hasText: 'Pedro Practica' });
  await expect(practiced.getByText('Práctica')).toBeVisible({ timeout: 20_000 });
  await screenshotAll(other, 'agency-practice', false);
  expect((await donations(practiceId)).total).toBe(0);
  const all = (await pageApi<DonationPage>(page, 'GET', `/manage/api/donations?q=Practica`)).body;
  expect(all.total).toBe(0);
  await other.context().close();

  // Discarding the agency signs its operator out.
  await page.goto(agencyPage);
  await page.getByRole('button', { name: 'Dar de baja el equipo' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Dar de baja el equipo' }).click();
  await expect(page.getByText('Este equipo fue dado de baja')).toBeVisible();
  await agent.goto('/agency');
  await expect(agent).toHaveURL(/\/account\/login/, { timeout: 20_000 });
  await agent.context().close();
});
