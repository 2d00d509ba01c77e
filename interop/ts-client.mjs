// One interop cell: an official TypeScript SDK client (v1 legacy, or v2 pinned to 2026-07-28) against a server.
// Checks: list across pages, get with arguments, a -32602 error, and a list_changed after a library edit.
//
//   node ts-client.mjs --sdk v1|v2 (--stdio "server command" | --url URL)
//        --get NAME --arg k=v ... --expect TEXT [--edit-file PATH | --edit-cmd 'SHELL COMMAND'] [--min-pages N]
//        [--bearer ACCESS_TOKEN] [--transport streamable|sse] [--protocol-version V] [--cancel NAME]
//        [--elicit NAME=VALUE] [--tools]
// --transport sse (v1 only): --url names the old HTTP+SSE transport's stream (e.g. http://127.0.0.1:3000/sse), served
// with the SDK's SSEClientTransport. --protocol-version makes the v1 client's initialize ask for V (such as 2024-11-05,
// as an old client would) instead of the SDK's latest: its POSTs go through a fetch that rewrites that one field.
// --edit-cmd changes the library with a command (e.g. promptd publish into a store) instead of writing a file.
// --elicit NAME=VALUE (v2; v1 over stdio): declares form elicitation and answers every form by filling each requested field with
// VALUE; gets prompt NAME with no arguments, so the server asks (InputRequiredResult, which the SDK's driver fulfils
// through the handler), and checks the rendered prompt contains VALUE and how many forms were shown.
// --tools: the server offers its prompts as tools (serve --prompts-as-tools): lists the tools, renders the --get prompt
// through get_prompt (its schema must name it), expects isError when its arguments are left out, lists prompts through
// list_prompts, and with an edit also waits for notifications/tools/list_changed.
// --cancel NAME (v1, HTTP): gets prompt NAME (one that renders until cancelled), aborts it after 300 ms (the SDK sends
// notifications/cancelled), waits for the server's answer to that POST to be read, and fails if the SDK raised any
// error for it (onerror) or the session stopped working.
//
// Prints one JSON line {"ok":true,...} and exits 0, or prints the failure and exits 1.
import { writeFileSync } from 'node:fs';

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const all = (name) => args.flatMap((a, i) => (a === name ? [args[i + 1]] : []));
const sdk = opt('--sdk', 'v1');
const stdioCmd = opt('--stdio');
const url = opt('--url');
const getName = opt('--get');
const expectText = opt('--expect');
const editFile = opt('--edit-file');
const editCmd = opt('--edit-cmd');
const minPages = Number(opt('--min-pages', '1'));
const bearer = opt('--bearer'); // an OAuth access token the HTTP client presents on every request
const httpTransport = opt('--transport', 'streamable');
const askVersion = opt('--protocol-version');
const cancelName = opt('--cancel');
const elicit = opt('--elicit');
const tools = process.argv.includes('--tools');
let formsShown = 0;
const getArgs = Object.fromEntries(all('--arg').map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
const timeout = (ms, what) => new Promise((_, reject) => setTimeout(() => reject(new Error(`timed out: ${what}`)), ms));

// A fetch that makes initialize ask for `version`, as a client of that version would.
function askingFor(version) {
  return async (input, init) => {
    let body = init?.body;
    if (typeof body === 'string' && body.includes('"method":"initialize"')) {
      const message = JSON.parse(body);
      message.params.protocolVersion = version;
      body = JSON.stringify(message);
    }
    return fetch(input, { ...init, body });
  };
}

// Every response of the v1 client's fetch, read to its end on a clone: lets --cancel wait for the cancelled POST's
// answer to have arrived in full before it looks for errors.
const answers = [];
function tracking(inner) {
  return (input, init) => {
    const pending = inner(input, init);
    // Registered before the SDK awaits the same promise, so the clone is taken before the SDK reads the body.
    if (init?.method === 'POST') answers.push({ body: String(init.body), read: pending.then((r) => r.clone().text()) });
    return pending;
  };
}

// --elicit: the user fills every field of the server's form (VALUE for text, the first choice, 1, true).
function fillForm(params) {
  formsShown++;
  const value = elicit.slice(elicit.indexOf('=') + 1);
  const properties = params.requestedSchema?.properties ?? {};
  const content = Object.fromEntries(Object.entries(properties).map(([k, schema]) =>
    [k, schema.type === 'integer' || schema.type === 'number' ? 1 : schema.type === 'boolean' ? true
      : schema.enum ? schema.enum[0] : value]));
  return { action: 'accept', content };
}

async function connect() {
  if (sdk === 'v1') {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const client = new Client({ name: 'interop-ts-v1', version: '1.0.0' },
      elicit ? { capabilities: { elicitation: {} } } : undefined);
    if (elicit) {
      const { ElicitRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
      client.setRequestHandler(ElicitRequestSchema, async (request) => fillForm(request.params));
    }
    let transport;
    if (stdioCmd) {
      const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
      transport = new StdioClientTransport({ command: 'bash', args: ['-c', `exec ${stdioCmd}`], stderr: 'inherit' });
    } else {
      const options = {};
      if (bearer) options.requestInit = { headers: { Authorization: `Bearer ${bearer}` } };
      if (askVersion) options.fetch = askingFor(askVersion);
      if (cancelName) options.fetch = tracking(options.fetch ?? fetch);
      if (httpTransport === 'sse') {
        const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
        transport = new SSEClientTransport(new URL(url), options);
      } else {
        const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
        transport = new StreamableHTTPClientTransport(new URL(url), options);
      }
    }
    await client.connect(transport);
    // The version initialize settled on, as the SDK handed it to the transport (SSEClientTransport keeps it private).
    return { client, era: 'legacy', version: transport.protocolVersion ?? transport._protocolVersion };
  }
  const v2 = await import('@modelcontextprotocol/client');
  const client = new v2.Client({ name: 'interop-ts-v2', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } },
      ...(elicit && { capabilities: { elicitation: { form: {} } } }) });
  if (elicit) {
    client.setRequestHandler('elicitation/create', async (request) => fillForm(request.params));
  }
  let transport;
  if (stdioCmd) {
    const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
    transport = new StdioClientTransport({ command: 'bash', args: ['-c', `exec ${stdioCmd}`], stderr: 'inherit' });
  } else {
    // v2's minimal AuthProvider: the SDK itself sets Authorization from the token it is given.
    transport = new v2.StreamableHTTPClientTransport(new URL(url),
      bearer ? { authProvider: { token: async () => bearer } } : undefined);
  }
  await client.connect(transport);
  return { client, era: 'modern' };
}

async function main() {
  const { client, era, version } = await connect();
  const report = { ok: false, sdk, era, transport: stdioCmd ? 'stdio' : httpTransport === 'sse' ? 'sse' : 'http' };
  if (version) report.version = version;

  // 1. list across pages. v1 returns one page per call; v2's listPrompts() without a cursor follows nextCursor
  // itself and returns everything, so there a listing longer than one server page proves the walk.
  const names = [];
  let cursor;
  let pages = 0;
  do {
    const page = await client.listPrompts(cursor ? { cursor } : {});
    names.push(...page.prompts.map((p) => p.name));
    cursor = page.nextCursor;
    pages++;
  } while (cursor && pages < 10000);
  const pageSize = Number(opt('--page-size', '2'));
  if (sdk === 'v2' && pages === 1 && names.length > pageSize) pages = Math.ceil(names.length / pageSize);
  if (pages < minPages) throw new Error(`expected at least ${minPages} pages, got ${pages}`);
  if (new Set(names).size !== names.length) throw new Error('a prompt was listed twice');
  report.pages = pages;
  report.prompts = names.length;

  // 2. get with arguments
  const got = await client.getPrompt({ name: getName, arguments: getArgs });
  const text = JSON.stringify(got.messages);
  if (expectText && !text.includes(expectText)) throw new Error(`rendered prompt lacks ${JSON.stringify(expectText)}: ${text}`);
  report.get = 'ok';

  // 3. a -32602 error
  try {
    await client.getPrompt({ name: 'no-such-prompt-anywhere', arguments: {} });
    throw new Error('getting an unknown prompt did not fail');
  } catch (e) {
    const code = e.code ?? e.data?.code;
    if (code !== -32602) throw new Error(`expected -32602 for an unknown prompt, got ${code}: ${e.message}`);
    report.invalidParams = code;
  }

  // 3a. missing arguments the server asks for (2026-07-28 multi round-trip requests)
  if (elicit) {
    const name = elicit.slice(0, elicit.indexOf('='));
    const value = elicit.slice(elicit.indexOf('=') + 1);
    const asked = await client.getPrompt({ name, arguments: {} });
    const rendered = JSON.stringify(asked.messages);
    if (!rendered.includes(value)) throw new Error(`the prompt rendered after the form lacks ${value}: ${rendered}`);
    if (formsShown < 1) throw new Error('no form was shown: the server did not ask');
    report.elicit = 'ok';
    report.forms = formsShown;
  }

  // 3c. the prompts as tools
  if (tools) {
    const listed = await client.listTools();
    const toolNames = listed.tools.map((t) => t.name);
    if (toolNames.join() !== 'list_prompts,get_prompt') throw new Error(`unexpected tools: ${toolNames.join()}`);
    const getTool = listed.tools[1];
    if (!(getTool.inputSchema?.properties?.name?.enum ?? []).includes(getName)) {
      throw new Error(`get_prompt's schema does not name ${getName}: ${JSON.stringify(getTool.inputSchema)}`);
    }
    const called = await client.callTool({ name: 'get_prompt', arguments: { name: getName, arguments: getArgs } });
    const calledText = JSON.stringify(called.content);
    if (called.isError || (expectText && !calledText.includes(expectText))) {
      throw new Error(`get_prompt did not render ${getName}: ${JSON.stringify(called)}`);
    }
    const refused = await client.callTool({ name: 'get_prompt', arguments: { name: getName, arguments: {} } });
    if (!refused.isError) throw new Error(`get_prompt without arguments was not a tool error: ${JSON.stringify(refused)}`);
    const all = await client.callTool({ name: 'list_prompts', arguments: {} });
    if (!JSON.stringify(all.content).includes(getName)) throw new Error(`list_prompts lacks ${getName}`);
    report.tools = 'ok';
  }

  // 3b. a request the client cancels: the server's answer to its POST must raise nothing in the SDK
  if (cancelName) {
    const errors = [];
    client.onerror = (e) => errors.push(String(e?.message ?? e));
    const abort = new AbortController();
    const pending = client.getPrompt({ name: cancelName, arguments: {} }, { signal: abort.signal });
    setTimeout(() => abort.abort('the interop test cancels'), 300);
    try {
      await pending;
      throw new Error('the cancelled request was answered');
    } catch (e) {
      if (!/cancel|abort/i.test(String(e?.message ?? e))) throw e;
    }
    const post = answers.find((a) => a.body.includes('"prompts/get"') && a.body.includes(cancelName));
    if (!post) throw new Error('the cancelled POST was not seen');
    const body = await Promise.race([post.read, timeout(10000, 'the answer to the cancelled POST')]);
    await client.listPrompts({}); // a round trip later, whatever the SDK does with that answer has happened
    if (errors.length) throw new Error(`the SDK raised an error for the cancelled request: ${errors.join('; ')}`);
    report.cancel = 'ok';
    report.cancelledAnswer = body.length;
  }

  // 4. list_changed after a library edit
  if (editFile || editCmd) {
    let resolveChanged;
    const changed = new Promise((r) => { resolveChanged = r; });
    let resolveTools;
    const toolsChanged = new Promise((r) => { resolveTools = r; });
    const v1types = sdk === 'v1' ? await import('@modelcontextprotocol/sdk/types.js') : null;
    if (v1types) {
      client.setNotificationHandler(v1types.PromptListChangedNotificationSchema, () => resolveChanged());
      if (tools) client.setNotificationHandler(v1types.ToolListChangedNotificationSchema, () => resolveTools());
    } else {
      client.setNotificationHandler('notifications/prompts/list_changed', () => resolveChanged());
      if (tools) client.setNotificationHandler('notifications/tools/list_changed', () => resolveTools());
    }
    let subscription;
    if (era === 'modern') {
      subscription = await client.listen(tools ? { promptsListChanged: true, toolsListChanged: true }
        : { promptsListChanged: true });
    }
    if (editFile) {
      writeFileSync(editFile, '---\ndescription: Added by the interop test\n---\nHello from an edit.\n');
    } else {
      const { exec } = await import('node:child_process');
      await new Promise((resolve, reject) => exec(editCmd, { shell: '/bin/bash' },
        (err, stdout, stderr) => (err ? reject(new Error(`--edit-cmd failed: ${stderr}`)) : resolve())));
    }
    await Promise.race([changed, timeout(10000, 'notifications/prompts/list_changed')]);
    if (tools) {
      await Promise.race([toolsChanged, timeout(10000, 'notifications/tools/list_changed')]);
      report.toolsListChanged = 'ok';
    }
    const after = await client.listPrompts({});
    report.listChanged = 'ok';
    report.afterEdit = after.prompts.length;
    if (subscription) await subscription.close();
  }
  report.ok = true;
  console.log(JSON.stringify(report));
  await client.close();
}

main().then(() => process.exit(0), (e) => {
  console.log(JSON.stringify({ ok: false, sdk, error: String(e?.message ?? e) }));
  process.exit(1);
});
