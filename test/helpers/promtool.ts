// Prometheus' own checker of exposition text (`promtool check metrics`, Debian's prometheus
// package): its complaints, or null when it is not installed (a failure under CI).
import { execFileSync, spawnSync } from 'node:child_process';

export const promtoolAvailable = (() => {
  try {
    execFileSync('promtool', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** What promtool says is wrong with `text` (empty when nothing is). */
export function promtoolProblems(text: string): string[] {
  const r = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  return `${r.stdout}${r.stderr}`
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}
