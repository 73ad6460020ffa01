// Writes docs/shader-sidecar.schema.json from the sidecar field table (src/container/sidecar.ts).
// tests/container/sidecar.test.ts fails when the committed file is not current.
import { writeFileSync } from 'node:fs';
import { sidecarJsonSchema } from '../src/container/sidecar.js';

const path = new URL('../docs/shader-sidecar.schema.json', import.meta.url);
writeFileSync(path, JSON.stringify(sidecarJsonSchema(), null, 2) + '\n');
process.stdout.write(`wrote ${path.pathname}\n`);
