// Small text helpers of the console: sparklines, counts, durations, fixed-width cells.

const BARS = '▁▂▃▄▅▆▇█';

/**
 * The last `width` values as bars from 0 to `axis` (by default their own maximum; all zeros: the
 * lowest bar). Rows that are compared share one axis, shown beside them, so a steady trickle
 * draws as a trickle next to a busy row.
 */
export function sparkline(values: readonly number[], width: number, axis?: number): string {
  const shown = values.slice(-width);
  const max = axis ?? Math.max(0, ...shown);
  const bars = shown.map((v) =>
    max === 0 ? BARS[0] : BARS[Math.min(BARS.length - 1, Math.round((v / max) * (BARS.length - 1)))],
  );
  return bars.join('').padStart(width, ' ');
}

/** 1234567 → "1,234,567"; a fraction keeps up to one decimal. */
export function count(n: number): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: 1 });
}

/** 3725 s → "1h02m"; 59 s → "59s"; days beyond. */
export function uptime(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  const m = Math.floor(seconds / 60);
  if (m < 60) return `${m}m${String(seconds % 60).padStart(2, '0')}s`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h${String(m % 60).padStart(2, '0')}m`;
  return `${Math.floor(h / 24)}d${String(h % 24).padStart(2, '0')}h`;
}

/**
 * A cell of exactly `width` characters: cut with an ellipsis, or padded. A left-aligned cell
 * keeps its last character blank and a right-aligned one its first, so no value ever runs into
 * the next column.
 */
export function cell(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const room = width - 1;
  const s = text.length > room ? `${text.slice(0, Math.max(0, room - 1))}…` : text;
  return align === 'left' ? s.padEnd(width) : s.padStart(width);
}

/** "2026-11-22T12:03:04.000Z" → "12:03:04" (UTC). */
export function clock(iso: string): string {
  return iso.slice(11, 19);
}

/** "2026-11-22T12:03:04.000Z" → "2026-11-22 12:03" (UTC), to the minute or, with `seconds`, the second. */
export function dateTime(iso: string, seconds = false): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, seconds ? 19 : 16)}`;
}

/** A span of milliseconds: "850 ms", "12.3 s", "4m05s", "1h02m". */
export function span(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 60_000) return `${(Math.floor(ms / 100) / 10).toFixed(1)} s`;
  return uptime(Math.floor(ms / 1000));
}

/** The smallest of 1, 2, 5 times a power of ten that is at least `n` (1 at the least): an axis's top. */
export function niceCeiling(n: number): number {
  if (!(n > 1)) return 1;
  const power = 10 ** Math.floor(Math.log10(n));
  for (const step of [1, 2, 5, 10]) if (step * power >= n) return step * power;
  return 10 * power;
}

/** Words into lines of at most `width` characters (a longer word is cut), at most `most` lines, the last cut with an ellipsis. */
export function wrapWords(text: string, width: number, most = 4): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = '';
    }
    line = line ? `${line} ${word}` : word.slice(0, width);
  }
  if (line) lines.push(line);
  if (lines.length <= most) return lines;
  const shown = lines.slice(0, most);
  shown[most - 1] = cell(`${shown[most - 1]} ${lines[most]}`, width + 1).trimEnd();
  return shown;
}
