// What the web catalog's browser scripts (catalog-browser.mjs, catalog-lifecycle.mjs) share: their arguments, their
// report of named checks, a headless Chromium (the system's, through the DevTools protocol with puppeteer-core), an
// MCP client to ask the server outside the browser, and axe-core's accessibility audit.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import puppeteer from 'puppeteer-core';

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** `--name value` pairs (a flag without a value is 'true'). */
export function parseArgs(argv) {
  return Object.fromEntries(argv.reduce((pairs, a, i, all) => {
    if (a.startsWith('--')) pairs.push([a.slice(2), all[i + 1] && !all[i + 1].startsWith('--') ? all[i + 1] : 'true']);
    return pairs;
  }, []));
}

/** The report printed at the end, and check(name, ok, detail), which records a check and throws when it failed. */
export function createReport() {
  const report = { ok: false, checks: {}, screenshots: [] };
  const check = (name, ok, detail) => {
    report.checks[name] = ok ? 'ok' : 'FAILED' + (detail ? ': ' + detail : '');
    if (!ok) throw new Error(name + ' failed' + (detail ? ': ' + detail : ''));
  };
  return { report, check };
}

/** Runs scenario(browser) in a headless Chromium, prints the report as one JSON line and exits 0 when it passed. */
export async function runInChromium(chromium, report, scenario) {
  const browser = await puppeteer.launch({
    executablePath: chromium || '/usr/bin/chromium',
    headless: true,
    timeout: 15000,
    protocolTimeout: 30000,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--no-default-browser-check'],
  });
  try {
    await scenario(browser);
    report.ok = true;
  } catch (e) {
    report.error = String(e && e.message || e);
  } finally {
    await browser.close();
  }
  console.log(JSON.stringify(report));
  process.exit(report.ok ? 0 : 1);
}

/** A 2026-07-28 MCP client of the endpoint {@code endpoint} of {@code base}: mcp(method, params, bearer). */
export function mcpClient(base, endpoint, token) {
  let nextId = 1;
  return async function mcp(method, params, bearer = token) {
    const headers = { 'Content-Type': 'application/json', 'Accept': 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': method };
    if (method === 'prompts/get') headers['Mcp-Name'] = params.name;
    if (method === 'resources/read') headers['Mcp-Name'] = params.uri;
    if (bearer) headers.Authorization = 'Bearer ' + bearer;
    const body = { jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'catalog-check', version: '1' } } } };
    const response = await fetch(new URL(endpoint, base), { method: 'POST', headers, body: JSON.stringify(body) });
    const text = await response.text();
    const json = response.headers.get('content-type').startsWith('text/event-stream')
      ? JSON.parse(text.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5)).pop())
      : JSON.parse(text);
    if (json.error) throw new Error(method + ': ' + json.error.message);
    return json.result;
  };
}

/**
 * axe-core's WCAG 2.1 A/AA and best-practice rules on {@code page}, a tab whose page policy the caller bypasses (the
 * catalog's own policy forbids any script but its own): { passes, violations }.
 */
export async function axeAudit(page) {
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const r = await axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] });
    return { passes: r.passes.length, violations: r.violations.map((v) => v.id + ' (' + v.impact + '): '
      + v.nodes.slice(0, 2).map((n) => n.target.join(' ')).join(', ')) };
  });
}
