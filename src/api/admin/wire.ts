// What the admin API sends, as its clients (the operator's console) read it: the shapes of the
// display functions its routes answer with, never the store's records.
import type { Snapshot } from '../../metrics/index.ts';
import type { accountSummaryView, adminJobView, keyView } from '../views.ts';

export type AdminAccount = ReturnType<typeof accountSummaryView>;
export type AdminKey = ReturnType<typeof keyView>;
export type AdminJob = ReturnType<typeof adminJobView>;
/** A page of a list: `GET /admin/v1/accounts`, `/jobs`. */
export interface AdminPage<T> {
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
}
/** `GET /admin/v1/snapshot`, and each message of the live feed. */
export type AdminSnapshot = Snapshot;
