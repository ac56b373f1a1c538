// The renderer contract over each of its adapters (in process, the piscina pool).
import t from 'tap';
import { backends, eachBackend } from './backends.ts';
import { rendererContract } from './renderer.ts';

await eachBackend(t, backends.renderer, rendererContract);
