// Invitations (issue 11, item 1): the users page lists an invitation as pending until the invited
// person accepts it from the e-mailed link (choosing name and password), which works once.
import { expect, test } from '@playwright/test';
import { ensureEnabledOrg, pageApi, screenshotAll, signIn } from './campaign-helpers';

test.use({ actionTimeout: 15_000, trace: 'off' });

test('an invited person accepts from the e-mailed link and joins the team', async ({ page, browser }) => {
  test.setTimeout(90_000);
  ensureEnabledOrg(); // the demo organisation and its administrator
  const email = `irene.${Date.now().toString(36)}@example.org`;
  await signIn(page);
  await page.goto('/manage/settings/users');
  await page.getByRole('button', { name: 'Invitar usuario' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: /^Nombre/ }).fill('Irene');
  await dialog.getByLabel('Apellido').fill('Invitada');
  await dialog.getByLabel('E-mail').fill(email);
  await dialog.getByRole('button', { name: 'Enviar invitación' }).click();
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row.getByText('Invitación pendiente')).toBeVisible();
  await expect(row.getByRole('button', { name: `Reenviar la invitación a ${email}` })).toBeVisible();
  await screenshotAll(page, 'settings-users-pending');

  const box = await pageApi<{ messages: { template_type: string; template_data: { invitation_url: string } }[] }>(
    page, 'GET', `/dev/api/outbox?to=${encodeURIComponent(email)}`);
  const url = new URL(box.body.messages.find((m) => m.template_type === 'user_invitation')!.template_data.invitation_url);
  const link = url.pathname + url.search;

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
