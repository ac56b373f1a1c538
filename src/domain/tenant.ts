import type { KeyMode } from './api-keys.ts';

/** Whose data a query may see: one account, one key mode (the test/live wall, DESIGN §4). */
export interface Tenant {
  readonly accountId: string;
  readonly mode: KeyMode;
}
