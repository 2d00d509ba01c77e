// Logs people in to the web catalog of a running `promptd serve --store URL --label L --http --catalog --manage
// --oauth-issuer KEYCLOAK --catalog-client-id ID` in a real headless Chromium, through a real Keycloak's login and
// consent pages, and checks what each person sees and may do. Each person gets a browser context of their own (their
// own cookies, so their own Keycloak session).
//   1. Bad answers: a forged state, a real state with a code Keycloak never issued, and a consent the person declines
//      (Keycloak's error=access_denied redirect) are each said on the page; nothing crashes.
//   2. The refused person (--refused): logs in, sees exactly --refused-prompts, may not promote --name's version
//      --version to the protected label --protected (the management API's 403, its message shown).
//   3. The allowed person (--allowed): logs in, sees exactly --allowed-prompts, promotes it; the page's access token is
//      refreshed before it expires and the refreshed one lists too; "Log out" ends the Keycloak session and comes
//      back to the page, which asks to log in again.
// Prints one JSON report line; exits 0 when every check passed, 1 otherwise.
//
//   node catalog-login.mjs --url http://127.0.0.1:PORT/ --password P --allowed A --allowed-prompts a,b,c
//       --refused B --refused-prompts a,b --name NAME --version N --protected LABEL --out DIR [--chromium PATH]
import fs from 'node:fs';
import path from 'node:path';
import { axeAudit, createReport, parseArgs, runInChromium } from './catalog-driver.mjs';

const args = parseArgs(process.argv.slice(2));
const pageUrl = new URL(args.url).href;
const { report, check } = createReport();
const WAIT = 20000;
const LOGIN_KEY = 'promptd.catalog.login';
fs.mkdirSync(args.out, { recursive: true });

await runInChromium(args.chromium, report, async (browser) => {
  const problems = [];

  /** A tab in a browser context of its own, English, with its page errors and dialogs collected. */
  const newTab = async () => {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    page.setDefaultTimeout(WAIT);
    await page.setExtraHTTPHeaders({ 'Accept-Language': 'en' });
    await page.setViewport({ width: 1440, height: 1000 });
    page.on('pageerror', (e) => problems.push('page error: ' + e.message));
    page.on('dialog', async (d) => {
      problems.push('dialog opened: ' + d.message());
      await d.dismiss();
    });
    return page;
  };
  const loginError = async (page) => {
    await page.waitForSelector('#login-error:not([hidden])');
    return page.$eval('#login-error', (e) => e.textContent);
  };
  const onKeycloak = (page) => page.waitForSelector('#username');
  const clickLogIn = async (page) => {
    await page.waitForSelector('#login-section:not([hidden])');
    await Promise.all([page.waitForNavigation({ waitUntil: 'domcontentloaded' }), page.click('#login')]);
  };
  /** Keycloak's login form, then its consent page: accepted, or declined. */
  const signIn = async (page, user, accept = true) => {
    await onKeycloak(page);
    await page.type('#username', user);
    await page.type('#password', args.password);
    await Promise.all([page.waitForNavigation({ waitUntil: 'domcontentloaded' }), page.click('#kc-login')]);
    await page.waitForSelector(accept ? '[name="accept"]' : '[name="cancel"]');
    await Promise.all([page.waitForNavigation({ waitUntil: 'domcontentloaded' }),
      page.click(accept ? '[name="accept"]' : '[name="cancel"]')]);
  };
  const promptsShown = async (page) => {
    await page.waitForSelector('.prompt-item');
    return page.$$eval('.prompt-item', (items) => items.map((i) => i.dataset.name).sort());
  };
  const expected = (list) => list.split(',').sort();
  const kept = (page) => page.evaluate((key) => JSON.parse(sessionStorage.getItem(key) || 'null'), LOGIN_KEY);
  /** Promotes --name's --version to --protected in the lifecycle section; returns the API's status. */
  const promote = async (page) => {
    await page.$$eval('.prompt-item', (items, n) => items.find((i) => i.dataset.name === n).click(), args.name);
    await page.waitForSelector('#lifecycle:not([hidden])');
    await page.waitForFunction(() => document.querySelectorAll('#versions-body tr').length > 0);
    await page.select('#promote-version', args.version);
    await page.$eval('#promote-label', (e) => { e.value = ''; });
    await page.type('#promote-label', args.protected);
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/manage/v1/labels') && r.request().method() === 'POST'),
      page.click('#promote'),
    ]);
    return answer.status();
  };

  // 1. Bad answers.
  const stranger = await newTab();
  report.discovery = [];
  stranger.on('response', (r) => {
    if (r.url().includes('/.well-known/')) {
      report.discovery.push(r.status() + ' ' + r.url().replace(/^https?:\/\/[^/]+/, ''));
    }
  });
  await stranger.goto(pageUrl, { waitUntil: 'domcontentloaded' });
  await stranger.waitForSelector('#login-section:not([hidden])');
  check('log in offered', await stranger.$eval('#login', (b) => b.textContent === 'Log in'));
  await stranger.goto(pageUrl + '?code=forged&state=forged', { waitUntil: 'domcontentloaded' });
  report.forgedState = await loginError(stranger);
  check('a forged state is refused', report.forgedState.includes('does not belong to a login started in this tab'),
    report.forgedState);
  check('the answer leaves the address bar', stranger.url() === pageUrl, stranger.url());
  await clickLogIn(stranger);
  await onKeycloak(stranger);
  const sent = new URL(stranger.url()).searchParams;
  check('PKCE S256 asked for', sent.get('code_challenge_method') === 'S256' && sent.get('code_challenge').length === 43
    && sent.get('redirect_uri') === pageUrl, stranger.url());
  await stranger.goto(pageUrl + '?code=never-issued&state=' + encodeURIComponent(sent.get('state')),
    { waitUntil: 'domcontentloaded' });
  report.refusedExchange = await loginError(stranger);
  check('a refused code exchange is said', report.refusedExchange.startsWith('The identity provider gave no token'),
    report.refusedExchange);
  await clickLogIn(stranger);
  await signIn(stranger, args.refused, false);
  report.declined = await loginError(stranger);
  check('a declined consent is said', report.declined.startsWith('The identity provider did not log you in'),
    report.declined);
  check('no token kept after a failed login', await kept(stranger) === null);
  await stranger.screenshot({ path: path.join(args.out, 'catalog-login-failed.png') });
  // The login panel for axe (its script injected past the page's policy, in a tab of its own).
  const audited = await newTab();
  await audited.setBypassCSP(true);
  await audited.goto(pageUrl, { waitUntil: 'domcontentloaded' });
  await audited.waitForSelector('#login-section:not([hidden])');
  const axe = await axeAudit(audited);
  check('accessibility of the login panel', axe.violations.length === 0, axe.violations.join('; '));

  // 2. The refused person: their prompts, a promotion the protected label's scope is needed for.
  const refused = await newTab();
  await refused.goto(pageUrl, { waitUntil: 'domcontentloaded' });
  await clickLogIn(refused);
  await signIn(refused, args.refused);
  report[args.refused] = { prompts: await promptsShown(refused) };
  check(args.refused + ' sees their prompts',
    JSON.stringify(report[args.refused].prompts) === JSON.stringify(expected(args['refused-prompts'])),
    JSON.stringify(report[args.refused].prompts));
  check(args.refused + ' named in the header', (await refused.$eval('#who', (e) => e.textContent)).includes(args.refused));
  report[args.refused].promoteStatus = await promote(refused);
  await refused.waitForSelector('#promote-error:not([hidden])');
  report[args.refused].promoteError = await refused.$eval('#promote-error', (e) => e.textContent);
  check('the refusal said', report[args.refused].promoteError.includes(args.protected),
    report[args.refused].promoteError);
  check('promote without the scope refused', report[args.refused].promoteStatus === 403,
    String(report[args.refused].promoteStatus));
  check('kept in sessionStorage only', await refused.evaluate((key) => localStorage.length === 0
    && sessionStorage.getItem(key) !== null, LOGIN_KEY));

  // 3. The allowed person: their prompts, the promotion, a refresh, log out.
  const allowed = await newTab();
  await allowed.goto(pageUrl, { waitUntil: 'domcontentloaded' });
  await clickLogIn(allowed);
  await signIn(allowed, args.allowed);
  report[args.allowed] = { prompts: await promptsShown(allowed) };
  check(args.allowed + ' sees their prompts',
    JSON.stringify(report[args.allowed].prompts) === JSON.stringify(expected(args['allowed-prompts'])),
    JSON.stringify(report[args.allowed].prompts));
  await allowed.screenshot({ path: path.join(args.out, 'catalog-login-' + args.allowed + '.png') });
  report[args.allowed].promoteStatus = await promote(allowed);
  check('promote with the scope done', report[args.allowed].promoteStatus === 200,
    String(report[args.allowed].promoteStatus));
  await allowed.waitForFunction(() => document.querySelector('#promote-done').textContent !== '');
  report[args.allowed].promoted = await allowed.$eval('#promote-done', (e) => e.textContent);
  const first = await kept(allowed);
  check('a refresh token kept', typeof first.refresh === 'string');
  await allowed.waitForFunction((key, before) => {
    const now = JSON.parse(sessionStorage.getItem(key) || 'null');
    return now !== null && now.access !== before;
  }, { timeout: Math.max(WAIT, first.expiresAt - Date.now() + 10000) }, LOGIN_KEY, first.access);
  const second = await kept(allowed);
  check('refreshed before expiry', second.expiresAt > first.expiresAt);
  await allowed.reload({ waitUntil: 'domcontentloaded' });
  check('the refreshed token lists', JSON.stringify(await promptsShown(allowed))
    === JSON.stringify(expected(args['allowed-prompts'])));
  await Promise.all([allowed.waitForNavigation({ waitUntil: 'domcontentloaded' }), allowed.click('#logout')]);
  await allowed.waitForFunction((url) => location.href === url, {}, pageUrl);
  await allowed.waitForSelector('#login-section:not([hidden])');
  check('logged out', await kept(allowed) === null && await allowed.$$eval('.prompt-item', (i) => i.length) === 0);
  await clickLogIn(allowed);
  await onKeycloak(allowed);
  check('the Keycloak session ended too', true);

  check('no page errors or dialogs', problems.length === 0, problems.join('; '));
});
