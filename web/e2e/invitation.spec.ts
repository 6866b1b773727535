// Invitations (issue 11, item 1): the users page lists an invitation as pending until the invited
// person accepts it from the e-mailed link (choosing name and password), which works once.
import { expect, test, type Page } from '@playwright/test';
import { ensureEnabledOrg, pageApi, screenshotAll, signIn } from './campaign-helpers';

test.use({ actionTimeout: 15_000, trace: 'off' });

/** The invitation link last e-mailed to the address (dev outbox), as a path of this site. */
async function invitationLink(page: Page, email: string) {
  const box = await pageApi<{ messages: { template_type: string; template_data: { invitation_url: string } }[] }>(
    page, 'GET', `/dev/api/outbox?to=${encodeURIComponent(email)}`);
  const url = new URL(box.body.messages.find((m) => m.template_type === 'user_invitation')!.template_data.invitation_url);
  return url.pathname + url.search;
}

async function invite(page: Page, first: string, last: string, email: string) {
  await page.goto('/manage/settings/users');
  await page.getByRole('button', { name: 'Invitar usuario' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: /^Nombre/ }).fill(first);
  await dialog.getByLabel('Apellido').fill(last);
  await dialog.getByLabel('E-mail').fill(email);
  await dialog.getByRole('button', { name: 'Enviar invitación' }).click();
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row.getByText('Invitación pendiente')).toBeVisible();
  return row;
}

test('an invited person accepts from the e-mailed link and joins the team', async ({ page, browser }) => {
  test.setTimeout(90_000);
  ensureEnabledOrg(); // the demo organisation and its administrator
  const email = `irene.${Date.now().toString(36)}@example.org`;
  await signIn(page);
  const row = await invite(page, 'Irene', 'Invitada', email);
  await expect(row.getByRole('button', { name: `Reenviar la invitación a ${email}` })).toBeVisible();
  await screenshotAll(page, 'settings-users-pending');
  const link = await invitationLink(page, email);

  // The invited person, in a browser of their own.
  const invitee = await browser.newPage();
  await invitee.goto(link);
  await expect(invitee.getByRole('heading', { name: 'Invitación a Aporta' })).toBeVisible();
  await expect(invitee.getByText(/con el rol Operación/)).toBeVisible();
  await expect(invitee.getByRole('textbox', { name: /^Nombre/ })).toHaveValue('Irene');
  await invitee.getByRole('button', { name: 'Aceptar la invitación' }).click();
  await expect(invitee.getByText('Ingresa una contraseña.')).toBeVisible();
  await invitee.locator('input[type=password]').fill('Irene-Invitada-2026');
  await screenshotAll(invitee, 'account-invitation');
  await invitee.getByRole('button', { name: 'Aceptar la invitación' }).click();
  await expect(invitee).toHaveURL(/\/manage\/dashboard/, { timeout: 20_000 });
  await invitee.close();

  // A member now; the link is used up.
  await page.reload();
  await expect(row.getByText('Activo')).toBeVisible();
  const again = await browser.newPage();
  await again.goto(link);
  await expect(again.getByRole('alert')).toContainText('ya fue usado');
  await again.close();
});

test('an existing account signs in from the link and accepts', async ({ page, browser }) => {
  test.setTimeout(90_000);
  ensureEnabledOrg();
  // A verified account that is not in the demo organisation.
  const email = `bruno.${Date.now().toString(36)}@example.org`;
  const password = 'Bruno-Existente-2026';
  const made = await fetch(`${process.env.APORTA_KRATOS_ADMIN_URL}/admin/identities`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      schema_id: 'organization_user',
      traits: { email, name: { first: 'Bruno', last: 'Existente' } },
      credentials: { password: { config: { password } } },
      verifiable_addresses: [{ value: email, via: 'email', verified: true, status: 'completed' }],
    }),
  });
  expect(made.status).toBe(201);

  await signIn(page);
  await invite(page, 'Bruno', 'Existente', email);
  const link = await invitationLink(page, email);

  const invitee = await browser.newPage();
  await invitee.goto(link);
  await expect(invitee.getByText('Ya tienes una cuenta con')).toBeVisible();
  await invitee.getByRole('button', { name: 'Iniciar sesión para aceptar' }).click();
  await invitee.locator('input[name="identifier"]').fill(email);
  await invitee.locator('input[name="password"]').fill(password);
  await invitee.locator('form button[type="submit"]').first().click();
  await expect(invitee).toHaveURL(/\/account\/invitation\?token=/, { timeout: 20_000 });
  await invitee.getByRole('button', { name: 'Aceptar la invitación' }).click();
  await expect(invitee).toHaveURL(/\/manage\/dashboard/, { timeout: 20_000 });
  await invitee.close();

  await page.reload();
  await expect(page.getByRole('row').filter({ hasText: email }).getByText('Activo')).toBeVisible();
});
