// GET /docs: the API reference, rendered in the browser by Redoc from the OpenAPI document
// (/api/v1/openapi.json), with the quickstart at its top and a curl line and a client call beside
// every operation. Redoc's bundle ships with the package and is served from here: the page loads
// nothing from elsewhere, and its Content-Security-Policy says so to the browser.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Reply } from '../types.ts';

export const DOCS_PATH = '/docs';
export const DOCS_SCRIPT_PATH = '/docs/redoc.standalone.js';

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Scriptorium API reference</title>
<link rel="icon" href="data:,">
<style>body { margin: 0; }</style>
</head>
<body>
<redoc spec-url="/api/v1/openapi.json" path-in-middle-panel="true" required-props-first="true" sort-props-alphabetically="false" expand-responses="200,201,202"></redoc>
<script src="${DOCS_SCRIPT_PATH}"></script>
</body>
</html>
`;

// Redoc draws with inline styles and builds its search worker from a blob; everything else is
// this server.
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'";

/**
 * Redoc's sidebar credit draws Redocly's logo from Redocly's CDN, which the policy (rightly)
 * refuses, and the browser reports each refusal. The credit keeps its words; its image is a blank
 * one of this page's own.
 */
const REDOCLY_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const BLANK_IMAGE = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/%3E";

let script: Buffer | null = null;

/** The reply for a docs path, or null when the path is not one. */
export function docsReply(path: string): Reply | null {
  if (path === DOCS_PATH || path === `${DOCS_PATH}/`)
    return {
      status: 200,
      headers: { 'Content-Security-Policy': CSP, 'Cache-Control': 'no-cache' },
      raw: { contentType: 'text/html; charset=utf-8', bytes: PAGE },
    };
  if (path === DOCS_SCRIPT_PATH) {
    script ??= Buffer.from(
      readFileSync(fileURLToPath(import.meta.resolve('redoc/bundles/redoc.standalone.js')), 'utf8').replace(
        REDOCLY_LOGO,
        BLANK_IMAGE,
      ),
    );
    return {
      status: 200,
      headers: { 'Cache-Control': 'public, max-age=3600' },
      raw: { contentType: 'text/javascript; charset=utf-8', bytes: script },
    };
  }
  return null;
}
