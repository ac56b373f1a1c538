import t from 'tap';
import { storeContract } from './contract/store.ts';
import { sqliteFactory } from './helpers/stores.ts';

storeContract(t, sqliteFactory);
