// The store contract over each of its backends (SQLite, PostgreSQL).
import t from 'tap';
import { backends, eachBackend } from './backends.ts';
import { storeContract } from './store.ts';

await eachBackend(t, backends.store, (t, _name, make) => storeContract(t, make));
