// For its effect, imported before resvg: the image renderer's allocator settings, which it reads
// from the environment once, when it first loads (workers/native-memory.ts says why they matter).
import { tuneImageAllocator } from '../src/config/index.ts';

tuneImageAllocator();
