// One interop cell for the MCP Skills extension (SEP-2640): the SkillsClient of @modelcontextprotocol/client
// (`@modelcontextprotocol/client/ext/skills`), on a Client pinned to 2026-07-28, against a server.
//
//   node ts-skills-client.mjs (--stdio "server command" | --url URL) [--no-such URI]...
//        [--tamper-bytes URI=FILE] [--tamper-length URI=FILE]
//
// Checks: the extension is supported; list() walks every page (the skills/list requests sent are counted); get(uri)
// of each skill equals its list entry; every file of every entry is read through read(), which checks its size, its
// digest and, for a SKILL.md, its frontmatter against the entry; with directoryRead, the folders walked from each
// skill's root with readDirectory() hold exactly the entry's files; get() of each --no-such URI is refused with
// the server's error code; each skill's prompt (named by its path, `/` as `-`) embeds the SKILL.md text that read()
// verified.
// --tamper-bytes URI=FILE (the server started with --no-watch, so its entries stay as listed): after a verified read
// of URI, changes one byte of FILE on disk and reads URI again past the client's cache; --tamper-length appends a
// line instead. Each must fail with a SkillVerificationError; its reason is reported per URI (`tampered`), then the
// entry is refreshed with get() and the file read under it again (`afterGet`: the reason, or "verified"); the other
// files must still verify.
//
// Prints one JSON line {"ok":true,...} and exits 0, or prints the failure and exits 1.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import {
  DIRECTORY_MIME_TYPE, RESOURCES_DIRECTORY_READ_METHOD, SKILLS_LIST_METHOD, SkillsClient, SkillVerificationError,
} from '@modelcontextprotocol/client/ext/skills';

const args = process.argv.slice(2);
const opt = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const all = (name) => args.flatMap((a, i) => (a === name ? [args[i + 1]] : []));
const stdioCmd = opt('--stdio');
const url = opt('--url');
const tamper = (kind, kv) => ({ kind, uri: kv.slice(0, kv.indexOf('=')), file: kv.slice(kv.indexOf('=') + 1) });
const tampers = [
  ...all('--tamper-bytes').map((kv) => tamper('bytes', kv)),
  ...all('--tamper-length').map((kv) => tamper('length', kv)),
];

// The skill's root URI (its SKILL.md's folder), as the entry spells it.
const rootOf = (skill) => skill.uri.slice(0, -'/SKILL.md'.length);
const canonical = (uri) => new URL(uri).href;

async function connect() {
  const client = new Client({ name: 'interop-ts-skills', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  const transport = stdioCmd
    ? new StdioClientTransport({ command: 'bash', args: ['-c', `exec ${stdioCmd}`], stderr: 'inherit' })
    : new StreamableHTTPClientTransport(new URL(url));
  // Counts the requests that reach the wire, by method: shows list() walked pages and read() asked the server.
  const sent = {};
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if (message.method) sent[message.method] = (sent[message.method] ?? 0) + 1;
    return send(message, options);
  };
  await client.connect(transport);
  return { client, sent };
}

// Every file below `uri`, walking `read` into each folder; returns the number of folders read.
async function walk(read, uri, found) {
  const { resources } = await read(uri);
  let directories = 1;
  for (const resource of resources) {
    if (resource.mimeType === DIRECTORY_MIME_TYPE) directories += await walk(read, resource.uri, found);
    else found.push(canonical(resource.uri));
  }
  return directories;
}

async function refusal(what, call) {
  try {
    await call();
  } catch (e) {
    if (e instanceof SkillVerificationError) throw new Error(`${what}: a verification error, not the server's: ${e.message}`);
    return e.code ?? String(e.message);
  }
  throw new Error(`${what} did not fail`);
}

async function main() {
  const { client, sent } = await connect();
  const skills = new SkillsClient(client);
  const report = { ok: false, transport: stdioCmd ? 'stdio' : 'http', version: client.getNegotiatedProtocolVersion() };
  if (!skills.supported) throw new Error('SkillsClient.supported is false: the extension was not declared');
  report.supported = true;
  report.directoryRead = skills.directoryRead;

  // 1. list(), every page
  const listing = await skills.list();
  if (listing.invalid.length) throw new Error(`invalid entries: ${JSON.stringify(listing.invalid)}`);
  report.skills = listing.skills.map((s) => s.uri);
  report.listRequests = sent[SKILLS_LIST_METHOD];
  report.cache = { ttlMs: listing.ttlMs, cacheScope: listing.cacheScope };
  // Entry URIs not in the form a URL parser gives them back (such as a space left unescaped): none may be.
  report.nonCanonicalUris = [...new Set(listing.skills.flatMap((s) => s.resources.map((r) => r.uri)))]
    .filter((uri) => uri !== canonical(uri));

  // 2. get(uri) of each equals its list entry
  for (const entry of listing.skills) {
    const { skill } = await skills.get(entry.uri);
    if (!isDeepStrictEqual(skill, entry)) {
      throw new Error(`skills/get ${entry.uri} differs from its list entry: ${JSON.stringify(skill)} vs ${JSON.stringify(entry)}`);
    }
  }
  report.getEqualsList = listing.skills.length;

  // 3. every file of every entry through the verifying read
  const manifests = new Map();
  let files = 0;
  let blobs = 0;
  for (const skill of listing.skills) {
    for (const resource of skill.resources) {
      const ref = resource.uri === skill.uri ? undefined : resource.uri.slice(rootOf(skill).length + 1);
      const file = await skills.read(skill, ref);
      if (!file.verified) throw new Error(`${resource.uri} was not verified`);
      if (file.text === undefined) blobs++;
      if (ref === undefined) {
        if (!file.frontmatter || file.body === undefined) throw new Error(`${skill.uri}: no frontmatter or body`);
        manifests.set(skill.uri, file.text);
      }
      files++;
    }
  }
  report.filesVerified = files;
  report.blobs = blobs;
  report.readRequests = sent['resources/read'];

  // 4. the directory tree from each root holds exactly the entry's files
  if (skills.directoryRead) {
    const read = (uri) => skills.readDirectory(uri);
    let directories = 0;
    for (const skill of listing.skills) {
      const found = [];
      directories += await walk(read, rootOf(skill), found);
      const listed = skill.resources.map((r) => canonical(r.uri));
      if (!isDeepStrictEqual(found.toSorted(), listed.toSorted())) {
        throw new Error(`directory walk of ${rootOf(skill)} found ${found} but the entry lists ${listed}`);
      }
    }
    report.directoriesRead = directories;
  }

  // 5. URIs that name no skill
  report.noSuch = {};
  for (const uri of all('--no-such')) report.noSuch[uri] = await refusal(`skills/get ${uri}`, () => skills.get(uri));

  // 6. each skill is also a prompt, named by its path, embedding the SKILL.md the client verified
  const { prompts } = await client.listPrompts();
  report.prompts = prompts.length;
  let skillPrompts = 0;
  for (const skill of listing.skills) {
    const name = decodeURIComponent(rootOf(skill).slice('skill://'.length)).replaceAll('/', '-');
    if (!prompts.some((p) => p.name === name)) throw new Error(`no prompt ${name} for ${skill.uri}`);
    const got = await client.getPrompt({ name, arguments: {} });
    const embedded = got.messages.map((m) => m.content).find((c) => c.type === 'resource' && c.resource.uri === skill.uri);
    if (embedded?.resource.text !== manifests.get(skill.uri)) {
      throw new Error(`prompt ${name} does not embed the verified ${skill.uri}: ${JSON.stringify(got.messages)}`);
    }
    skillPrompts++;
  }
  report.skillPrompts = skillPrompts;

  // 7. files changed on disk behind the entries: the client's verification must refuse them
  if (tampers.length) {
    report.tampered = {};
    report.afterGet = {};
    for (const { kind, uri, file } of tampers) {
      const skill = listing.skills.find((s) => s.resources.some((r) => canonical(r.uri) === canonical(uri)));
      if (!skill) throw new Error(`${uri} is in no listed skill`);
      if (kind === 'bytes') {
        const bytes = readFileSync(file);
        bytes[bytes.length - 2] ^= 0x01; // one bit of the last character before the final newline
        writeFileSync(file, bytes);
      } else {
        appendFileSync(file, 'A line added behind the listing.\n');
      }
      try {
        await skills.read(skill, uri, { cacheMode: 'bypass' });
        throw new Error(`${uri} changed on disk (${kind}) but read() verified it`);
      } catch (e) {
        if (!(e instanceof SkillVerificationError)) throw e;
        report.tampered[uri] = e.reason;
      }
      // The recovery the specification gives a host: refresh the entry with skills/get, read again under it.
      const { skill: refreshed } = await skills.get(skill.uri);
      try {
        await skills.read(refreshed, uri, { cacheMode: 'bypass' });
        report.afterGet[uri] = 'verified';
      } catch (e) {
        if (!(e instanceof SkillVerificationError)) throw e;
        report.afterGet[uri] = e.reason;
      }
    }
    let stillVerified = 0;
    for (const skill of listing.skills) {
      for (const resource of skill.resources) {
        if (tampers.some((t) => canonical(t.uri) === canonical(resource.uri))) continue;
        await skills.read(skill, resource.uri, { cacheMode: 'bypass' });
        stillVerified++;
      }
    }
    report.untamperedVerified = stillVerified;
  }

  report.ok = true;
  console.log(JSON.stringify(report));
  await client.close();
}

main().then(() => process.exit(0), (e) => {
  console.log(JSON.stringify({ ok: false, error: String(e?.message ?? e), reason: e?.reason }));
  process.exit(1);
});
