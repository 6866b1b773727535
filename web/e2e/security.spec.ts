import { expect, test, type APIRequestContext } from '@playwright/test';
import { psql } from './campaign-helpers';
import { screenshotAll, viewports } from './screens';
import { totp } from './totp';

// Account security screens against the real stack: an e-mail change that waits for its code, a new
// staff member setting up the authenticator app the console requires, and the code at login.

async function codeFor(request: APIRequestContext, to: string): Promise<string> {
  let code = '';
  await expect
    .poll(
      async () => {
        const res = await request.get(`/dev/api/outbox?to=${encodeURIComponent(to)}`);
        const { messages } = (await res.json()) as { messages: { code: string }[] };
        code = messages.find((m) => m.code)?.code ?? '';
        return code;
      },
      { timeout: 30_000, message: `a code for ${to}` },
    )
    .not.toBe('');
  return code;
}

const run = Date.now().toString().slice(-6);
const password = 'Aporta-Prueba-2026';
const firstEmail = `typo.${run}@example.org`;
const email = `seguridad.${run}@example.org`;

test.use({ actionTimeout: 15_000, trace: 'off' });

test('an e-mail change waits for its code; a new staff member sets up and uses an authenticator app', async ({ page }) => {
  test.setTimeout(180_000);
  const ketoWrite = process.env.APORTA_KETO_WRITE_URL;
  test.skip(!ketoWrite, 'APORTA_KETO_WRITE_URL is not set: run through deploy/stack.sh test');
  await page.setViewportSize(viewports.desktop);

  // A new organisation's administrator, signed in by the registration (same browser context).
  const registered = await page.request.post('/internal/api/accounts/register', {
    headers: { 'Idempotency-Key': `security-e2e-${run}` },
    data: {
      user: {
        first_name: 'Sofía', last_name: 'Martínez', email: firstEmail, password,
        cellphone: { country: 'AR', number: `91146${run}` }, organization_role_area: 'Dirección',
      },
      organization: { name: `Fundación Segura ${run}`, uid: '20-17254359-7', uid_type: 'CUIT', country: 'AR' },
    },
  });
  expect(registered.status()).toBe(201);

  const me = await page.request.get('/manage/api/user');
  const { uuid } = (await me.json()) as { uuid: string };

  // --- The e-mail typed at signup is changed. A sign-in older than 15 minutes must confirm the
  // password first (the session is aged in Kratos's database, on the stack's PostgreSQL).
  const kratosDb = (process.env.APORTA_DIRECTORY_DSN ?? '').replace('/aporta_directory?', '/kratos?');
  psql(kratosDb, `UPDATE sessions SET authenticated_at = now() - interval '20 minutes' WHERE identity_id = '${uuid}'`);
  await page.goto('/account/verifications');
  await expect(page.getByRole('heading', { name: 'Verifica tu e-mail' })).toBeVisible();
  await page.getByRole('button', { name: 'Cambiar e-mail' }).click();
  await page.getByLabel('Nuevo e-mail').fill(email);
  await page.getByRole('button', { name: 'Cambiar', exact: true }).click();
  await expect(page.getByText('Por seguridad, vuelve a ingresar tu contraseña antes de hacer este cambio.')).toBeVisible();
  await screenshotAll(page, 'verify-email-reauth');
  await page.getByRole('link', { name: 'Ingresar mi contraseña' }).click();
  await expect(page.getByRole('heading', { name: 'Confirma que eres tú' })).toBeVisible({ timeout: 15_000 });
  await screenshotAll(page, 'login-refresh');
  await page.locator('input[type=password]').fill(password);
  await page.getByRole('button', { name: 'Confirmar' }).click();
  await expect(page).toHaveURL(/\/account\/verifications/, { timeout: 15_000 });

  // The new address waits for its code; the login stays the old one until then.
  await page.getByRole('button', { name: 'Cambiar e-mail' }).click();
  await page.getByLabel('Nuevo e-mail').fill(email);
  await page.getByRole('button', { name: 'Cambiar', exact: true }).click();
  await expect(page.getByText(`Hasta que lo ingreses, tu e-mail para entrar sigue siendo ${firstEmail}.`)).toBeVisible();
  await screenshotAll(page, 'verify-email-pending');
  await page.getByLabel('Código de verificación').fill(await codeFor(page.request, email));
  await page.getByRole('button', { name: 'Verificar' }).click();
  await expect(page.getByText('¡Tu e-mail quedó verificado!')).toBeVisible();

  // --- Product staff (granted in Keto, as operations do) without a second factor yet.
  const after = (await (await page.request.get('/manage/api/user')).json()) as { email: string };
  expect(after.email).toBe(email);
  const granted = await page.request.put(`${ketoWrite}/admin/relation-tuples`, {
    data: { namespace: 'Staff', object: 'aporta', relation: 'members', subject_set: { namespace: 'User', object: uuid, relation: '' } },
  });
  expect(granted.ok()).toBeTruthy();

  await page.goto('/staff');
  await expect(page.getByRole('heading', { name: 'Activa la verificación en dos pasos' })).toBeVisible();
  await screenshotAll(page, 'staff-second-factor-required');
  await page.getByRole('link', { name: 'Configurar mi app de autenticación' }).click();
  await expect(page.getByRole('heading', { name: 'Configura la verificación en dos pasos' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'Código QR para agregar Aporta a tu app de autenticación' })).toBeVisible();
  await screenshotAll(page, 'two-factor-setup');
  const secret = ((await page.locator('[data-totp-secret]').textContent()) ?? '').trim();
  await page.getByLabel('Código de 6 dígitos de la app').fill(totp(secret) === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Activar' }).click();
  await expect(page.getByText('El código no es correcto.', { exact: false })).toBeVisible();
  await screenshotAll(page, 'two-factor-setup-wrong-code');
  const key = ((await page.locator('[data-totp-secret]').textContent()) ?? '').trim(); // as Kratos shows it now
  await page.getByLabel('Código de 6 dígitos de la app').fill(totp(key));
  await page.getByRole('button', { name: 'Activar' }).click();
  await expect(page.getByRole('heading', { name: 'Organizaciones por verificar' })).toBeVisible({ timeout: 15_000 });

  // --- Signing in again: the password, then the app's code.
  await page.goto('/account/logout');
  await expect(page).toHaveURL(/\/account\/login/, { timeout: 15_000 });
  await page.getByLabel('E-mail').fill(email);
  await page.locator('input[type=password]').fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByRole('heading', { name: 'Verificación en dos pasos' })).toBeVisible({ timeout: 15_000 });
  await page.getByLabel('Código de la app de autenticación').fill(totp(key));
  await page.getByRole('button', { name: 'Verificar' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/account/login') && !url.pathname.startsWith('/.ory'), { timeout: 15_000 });
  await page.goto('/staff');
  await expect(page.getByRole('heading', { name: 'Organizaciones por verificar' })).toBeVisible();

});
