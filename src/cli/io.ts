// Where the command writes: the process's stdout and stderr, or, while `captured` runs (the unit
// tests of arguments and refusals), two strings.
export interface Written {
  stdout: string;
  stderr: string;
}

let sink: Written | null = null;

export const io = {
  out(text: string): void {
    if (sink) sink.stdout += text;
    else process.stdout.write(text);
  },
  err(text: string): void {
    if (sink) sink.stderr += text;
    else process.stderr.write(text);
  },
};

/** Runs `work` with the command's output kept, not written; one at a time. */
export async function captured(work: () => Promise<void>): Promise<Written> {
  if (sink) throw new Error('captured() does not nest');
  const written = { stdout: '', stderr: '' };
  sink = written;
  try {
    await work();
  } finally {
    sink = null;
  }
  return written;
}
