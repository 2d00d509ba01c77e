// Plays the person in front of the browser for an MCP client's sign-in: opens the authorization URL the client
// handed to its browser in a real headless Chromium (the system's, with puppeteer-core), fills in Keycloak's login
// form, accepts its consent page when one is shown, and follows the redirect to the client's callback.
// Prints one JSON report line; exits 0 when the callback page was reached, 1 otherwise.
//
//   node keycloak-login.mjs --url AUTHORIZATION_URL --user NAME --password P --callback PREFIX [--chromium PATH]
import { createReport, parseArgs, runInChromium } from './catalog-driver.mjs';

const args = parseArgs(process.argv.slice(2));
const WAIT = 20000;
const { report, check } = createReport();

await runInChromium(args.chromium, report, async (browser) => {
  const page = await browser.newPage();
  page.setDefaultTimeout(WAIT);
  await page.goto(args.url, { waitUntil: 'domcontentloaded' });
  await page.waitForSelector('#username');
  check('login form shown', true);
  await page.type('#username', args.user);
  await page.type('#password', args.password);
  await Promise.all([page.waitForNavigation({ waitUntil: 'domcontentloaded' }), page.click('#kc-login')]);
  if (!page.url().startsWith(args.callback)) {
    // Keycloak's consent page (a client registered by itself needs the person's consent once).
    await page.waitForSelector('[name="accept"]');
    report.consent = true;
    await Promise.all([
      page.waitForNavigation({ waitUntil: 'domcontentloaded' }),
      page.click('[name="accept"]'),
    ]);
  }
  report.landed = page.url().split('?')[0];
  check('redirected to the callback', page.url().startsWith(args.callback), page.url());
  report.callbackText = (await page.evaluate(() => document.body.innerText)).slice(0, 200);
});
