// Which Node versions the HTTP transport has native builds for, read from the files of the
// installed uWebSockets.js package without loading it: on a Node it has no build for, the package
// falls back to a JavaScript shim that cannot answer a request of this server (it lacks
// HttpRequest.forEach and listen_unix, among others; docs/decisions.md, "Runtimes"). `serve` asks
// before it opens or loads anything.
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Node's module ABI versions by major release (process.versions.modules). */
const NODE_OF_ABI: Record<string, number> = { '93': 16, '108': 18, '115': 20, '127': 22, '137': 24 };

/** The Node releases the transport has a native build for on this platform, oldest first. */
export function nativeNodeVersions(): number[] {
  const pkg = createRequire(import.meta.url).resolve('uWebSockets.js/package.json');
  const prefix = `uws_${process.platform}_${process.arch}_`;
  return readdirSync(join(dirname(pkg), 'binaries'))
    .filter((f) => f.startsWith(prefix) && f.endsWith('.node'))
    .map((f) => NODE_OF_ABI[f.slice(prefix.length, -'.node'.length)])
    .filter((v): v is number => v !== undefined)
    .sort((a, b) => a - b);
}

/** Why `serve` will not run on this Node, in one line; null where the transport has a native build. */
export function runtimeRefusal(
  node: { version: string; abi: string } = { version: process.versions.node, abi: process.versions.modules },
  supported: number[] = nativeNodeVersions(),
): string | null {
  if (supported.includes(NODE_OF_ABI[node.abi] ?? -1)) return null;
  const list = supported.length ? `Node ${supported.join(', ')}` : 'no Node release';
  return `Node ${node.version} is not supported: the HTTP transport (uWebSockets.js) has native builds for ${list} on ${process.platform}-${process.arch}, and its JavaScript fallback cannot serve; run scriptorium with Node 20 (package.json "engines"; for example \`nvm install 20\`)`;
}
