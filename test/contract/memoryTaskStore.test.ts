// Through the public entry: the memory store is what applications import from 'toolwire'.
import { MemoryTaskStore } from '../../src/index.js';
import { taskStoreContract } from './taskStoreContract.js';

taskStoreContract('memory', async () => new MemoryTaskStore());
