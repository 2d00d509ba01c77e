// A prompts server on the official TypeScript SDK v2 (@modelcontextprotocol/server 2.4.0), for testing promptd's
// client against it. Modern (2026-07-28) and legacy traffic both work, as the SDK provides.
//
//   node ts-v2-server.mjs stdio            serveStdio
//   node ts-v2-server.mjs http PORT        createMcpHandler at http://127.0.0.1:PORT/mcp
//
// Prompts: greet (required `name`), and touch: getting it registers a new prompt `touched`, so a client can
// observe notifications/prompts/list_changed.
import { createServer } from 'node:http';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { toNodeHandler } from '@modelcontextprotocol/node';
import * as z from 'zod';

const text = (t) => ({ role: 'user', content: { type: 'text', text: t } });
let touched = false;
const servers = new Set();
let httpHandler; // over HTTP, listen streams hear of changes through the handler's notifier

function factory() {
  const server = new McpServer({ name: 'interop-ts-v2-server', version: '1.0.0' });
  servers.add(server);
  server.registerPrompt('greet', { description: 'Greets someone', argsSchema: z.object({ name: z.string() }) },
    ({ name }) => ({ messages: [text(`Hello, ${name}!`)] }));
  server.registerPrompt('touch', { description: 'Registers the prompt touched' }, () => {
    touched = true;
    for (const s of servers) addTouched(s);
    httpHandler?.notify?.promptsChanged();
    return { messages: [text('ok')] };
  });
  if (touched) addTouched(server);
  return server;
}

function addTouched(server) {
  try {
    server.registerPrompt('touched', { description: 'Added by touch' }, () => ({ messages: [text('touched')] }));
  } catch {
    // already registered on this instance
  }
}

const [mode, port] = process.argv.slice(2);
if (mode === 'http') {
  httpHandler = createMcpHandler(factory);
  const handler = toNodeHandler(httpHandler);
  createServer((req, res) => handler(req, res)).listen(Number(port), '127.0.0.1',
    () => process.stderr.write(`listening on http://127.0.0.1:${port}/mcp\n`));
} else {
  serveStdio(factory);
}
