#!/usr/bin/env node
// The `scriptorium` command: runs the built release (dist/server, made by `npm run build`; `npm ci`
// builds it). Stack traces name the lines of the TypeScript sources.
process.setSourceMapsEnabled(true);
try {
  await import('../dist/server/scriptorium.js');
} catch (err) {
  if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !String(err.message).includes('dist/server/scriptorium.js'))
    throw err;
  process.stderr.write('scriptorium: the built release is missing: run npm run build (npm ci builds it)\n');
  process.exitCode = 1;
}
