// Writing a build's files under a directory that running processes read from (scripts/build.mjs,
// scripts/build-dashboard.mjs): a file is replaced only when its bytes change, each by a rename,
// and files no longer built are removed last, so that a process never reads a half-written, a
// missing or an emptied build (a test that runs `npx scriptorium` in a checkout runs `prepare`,
// a whole build, beside servers serving the one before).
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The files under `dir`, as paths relative to it. */
export function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)).map((f) => join(e.name, f)) : [e.name],
  );
}

/** Writes each of `files` ({ path, contents }) whose bytes are not there already; how many it wrote. */
export function putChanged(files) {
  let changed = 0;
  for (const file of files) {
    if (existsSync(file.path) && readFileSync(file.path).equals(file.contents)) continue;
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(`${file.path}.${process.pid}.tmp`, file.contents);
    renameSync(`${file.path}.${process.pid}.tmp`, file.path);
    changed++;
  }
  return changed;
}

/** Removes the files under `dir` that `kept` (paths relative to it) does not hold; those removed. */
export function removeStale(dir, kept) {
  const stale = filesUnder(dir).filter((f) => !kept.has(f));
  for (const f of stale) rmSync(join(dir, f));
  return stale;
}
