// Argument parsers the commands share.
import { InvalidArgumentError, Option } from 'commander';
import { type IdPrefix, isId } from '../domain/ids.ts';

/** An id of this kind (`acc_…`), refused with what it must be before anything is opened. */
export function id(prefix: IdPrefix, what: string) {
  return (value: string) => {
    if (!isId(prefix, value))
      throw new InvalidArgumentError(
        `must be ${what} id (${prefix}_ and 22 letters or digits), got "${value}"`,
      );
    return value;
  };
}

/** `--limit <n>` of the list commands: 1-100 rows, 50 by default. */
export const limitOption = () =>
  new Option('--limit <n>', 'rows, 1-100')
    .argParser((v: string) => {
      if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 100)
        throw new InvalidArgumentError(`must be 1-100, got "${v}"`);
      return Number(v);
    })
    .default(50);
