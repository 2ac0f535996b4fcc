import { MemoryTaskStore } from '../../src/tasks/memoryTaskStore.js';
import { taskStoreContract } from './taskStoreContract.js';

taskStoreContract('memory', async () => new MemoryTaskStore());
