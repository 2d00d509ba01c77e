// Preload for the conformance CLI (node --import ./node20.mjs ...): @modelcontextprotocol/conformance 0.1.16 imports
// `globSync` from "fs", which only Node >= 22 has, so on Node 20 the whole CLI fails to load. Only its results-summary
// command calls globSync; `server --scenario` never does. So on Node < 22 a resolve hook hands the package an "fs" whose
// globSync says what is missing instead of the import failing. On Node >= 22 this file does nothing.
import { register } from 'node:module';

const HOOKS = '?resolve-hooks';
const FS_WITH_GLOBSYNC = 'data:text/javascript,' + encodeURIComponent(
  "import fs from 'node:fs'; export * from 'node:fs'; export default fs;\n" +
  "export function globSync() { throw new Error('fs.globSync needs Node >= 22'); }");

if (!import.meta.url.endsWith(HOOKS) && Number(process.versions.node.split('.')[0]) < 22) {
  register(import.meta.url + HOOKS);
}

/** The resolve hook (runs on the loader thread): "fs" imported from inside the conformance package. */
export async function resolve(specifier, context, nextResolve) {
  const fromSuite = context.parentURL?.includes('/node_modules/@modelcontextprotocol/conformance/') ?? false;
  if (fromSuite && (specifier === 'fs' || specifier === 'node:fs')) {
    return { url: FS_WITH_GLOBSYNC, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}
