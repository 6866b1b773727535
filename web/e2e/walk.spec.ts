// Issue #18's "done when": a new administrator's walk from the landing page through sign-in and every entry of
// the manage area's navigation, on a laptop and on a phone. Each page must have a heading, answer no request with
// 4xx/5xx, log no console error, and pass an axe-core scan without serious or critical violations. The entries
// are read from the rendered navigation, so a section added to it later is walked too. Screenshots of every page
// land in test-results/screens/walk-*.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, ensureEnabledOrg } from './campaign-helpers';
import { shot } from './screens';

test.beforeAll(() => ensureEnabledOrg());

const sizes = { desktop: { width: 1366, height: 800 }, phone: { width: 390, height: 844 } } as const;

/** Everything that went wrong on the page since the last check: failed responses and console errors. */
function watch(page: Page) {
  const problems: string[] = [];
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`${res.status()} ${res.request().method()} ${res.url()}`);
  });
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  return {
    /**
     * Fails (softly: the walk goes on, to show every page's problems) on anything collected so far but what the step
     * expects, then starts over.
     */
    check(where: string, expected: (problem: string) => boolean = () => false) {
      const found = problems.splice(0).filter((p) => !expected(p));
      expect.soft(found, `problems on ${where}`).toEqual([]);
    },
  };
}

/** Fails with the page's name when `work` takes longer than `ms`: page.evaluate (an axe scan) has no timeout of its own. */
async function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The page is done: a heading is shown, nothing is loading, and an axe scan finds nothing serious. Every wait is
 * bounded and names the page. No networkidle: pages that poll (a webhook's delivery log, a CRM's queue) never
 * reach it, and the heading and the absent loaders already say the page has its data.
 */
async function inspect(page: Page, name: string) {
  await expect(page.getByRole('heading', { level: 1 }).first(), `the heading of ${name}`).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('status', { name: /Cargando/ }), `the loaders of ${name}`).toHaveCount(0, { timeout: 20_000 });
  await shot(page, `walk-${name}`, true);
  const { violations } = await within(60_000, `the axe scan of ${name}`, new AxeBuilder({ page }).analyze());
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 120)}`).join(', ')}`);
  expect.soft(serious, `accessibility on ${name}`).toEqual([]);
}

/** The manage area's navigation; on a phone it is a drawer behind the burger, opened first. */
async function openNavigation(page: Page, phone: boolean) {
  const nav = page.getByRole('navigation', { name: 'Principal' });
  if (phone && !(await nav.isVisible())) {
    await page.getByRole('button', { name: 'Abrir o cerrar la navegación' }).click();
  }
  await expect(nav).toBeVisible({ timeout: 20_000 }); // the shell waits for the user and the organisation
  return nav;
}

for (const [device, size] of Object.entries(sizes)) {
  const phone = device === 'phone';

  test(`a new administrator walks every section on a ${device}`, async ({ page }) => {
    test.setTimeout(480_000);
    await page.setViewportSize(size);
    const problems = watch(page);

    await page.goto('/');
    await inspect(page, `${device}-landing`);
    problems.check('the landing page');

    await page.getByRole('link', { name: 'Iniciar sesión' }).first().click();
    await expect(page).toHaveURL(/\/account\/login/);
    await inspect(page, `${device}-login`);
    await page.locator('input[name="identifier"]').fill(ADMIN.email);
    await page.locator('input[name="password"]').fill(ADMIN.password);
    await page.locator('form button[type="submit"]').first().click();
    await expect(page).toHaveURL(/\/manage\/dashboard/, { timeout: 20_000 });
    problems.check('sign-in');

    const nav = await openNavigation(page, phone);
    const entries = await nav.getByRole('link').evaluateAll((links) =>
      links.map((a) => ({ name: (a.textContent ?? '').trim(), path: new URL((a as HTMLAnchorElement).href).pathname })),
    );
    // An administrator sees every section, settings included.
    expect(entries.map((e) => e.path)).toEqual(expect.arrayContaining(['/manage/dashboard', '/manage/donations', '/manage/settings/gateways']));
    if (phone) await shot(page, `walk-${device}-navigation`);

    const heading = page.getByRole('heading', { level: 1 }).first();
    for (const entry of entries) {
      // A step per section: a failure or a hang names the page it happened on.
      await test.step(entry.path, async () => {
        const before = page.url().includes(entry.path) ? null : await heading.textContent();
        const links = await openNavigation(page, phone);
        await links.getByRole('link', { name: entry.name, exact: true }).click();
        await expect(page).toHaveURL(new RegExp(`${entry.path}(\\?|#|$)`), { timeout: 20_000 });
        if (before) await expect(heading).not.toHaveText(before, { timeout: 20_000 }); // the new page, not the last one still loading
        if (phone) await expect(page.getByRole('navigation', { name: 'Principal' })).toBeHidden(); // the drawer closed
        await expect(page.locator('[aria-current="page"]').filter({ hasText: entry.name })).toHaveCount(1);
        await inspect(page, `${device}${entry.path.replaceAll('/', '-')}`);
        problems.check(entry.path);
      });
    }

    // The user menu: the person's own data, the language and the way out.
    await page.getByTestId('user-menu').click();
    const menu = page.getByRole('menu');
    await expect(menu.getByRole('menuitem', { name: 'Mis datos' })).toBeVisible();
    await shot(page, `walk-${device}-user-menu`);
    await menu.getByRole('menuitem', { name: 'English' }).click();
    await expect(page.getByRole('navigation', { name: 'Main' }).or(page.getByRole('button', { name: 'Open or close the navigation' }))).toBeVisible();
    await page.getByTestId('user-menu').click();
    await page.getByRole('menu').getByRole('menuitem', { name: 'Español' }).click();
    await page.getByTestId('user-menu').click();
    await page.getByRole('menu').getByRole('menuitem', { name: 'Contraseña' }).click();
    await expect(page).toHaveURL(/\/manage\/settings\/users(\?[^#]*)?#change-pw$/);
    await expect(page.getByRole('heading', { name: 'Cambiar contraseña' })).toBeInViewport();
    problems.check('the user menu');

    // An unknown address inside the area answers 404 with the not-found page, in the area's shell: the navigation
    // is still there, and the page leads back to the dashboard.
    for (const path of ['/manage/no-such-section', '/manage/settings/nope']) {
      const missing = await page.goto(path);
      expect(missing?.status(), path).toBe(404);
      await expect(page.getByRole('heading', { level: 1, name: 'No encontramos esta página' })).toBeVisible();
      await expect(page.getByTestId('user-menu')).toBeVisible();
      await expect(page.getByRole('link', { name: 'Volver al inicio' })).toHaveAttribute('href', '/manage/dashboard');
      await openNavigation(page, phone);
      await shot(page, `walk-${device}-not-found${path.replaceAll('/', '-')}`);
      if (phone) await page.keyboard.press('Escape');
      // The page's own 404, which the browser also logs.
      problems.check(path, (p) => p === `404 GET ${new URL(path, page.url()).href}` || /^console: Failed to load resource: .* 404/.test(p));
    }

    await page.goto('/manage/dashboard');
    await page.getByTestId('user-menu').click();
    await page.getByRole('menu').getByRole('menuitem', { name: 'Cerrar sesión' }).click();
    // Signed out once the login form of a fresh flow shows: /account/login alone is a stop on the way (it goes on
    // to Kratos for a flow), and a test that ends there closes its page in the middle of those redirects.
    await expect(page).toHaveURL(/\/account\/login\?flow=/, { timeout: 20_000 });
    await expect(page.locator('input[name="identifier"]')).toBeVisible({ timeout: 20_000 });
  });
}
