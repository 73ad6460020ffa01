// SPIR-V word counts of the image kernels (tests/runtime): recompile(shader, LAVAPIPE_PROFILE).spirv.length,
// one line per kernel (the first case of each spirvName) and the total.
// Usage: node --import tsx tools/size-image.ts
import { recompile } from '../src/backend/recompile.js';
import { LAVAPIPE_PROFILE } from '../src/backend/profile.js';
import { imageCases, imageFloatAtomicCases } from '../tests/runtime/cases-image.js';
import { imageVkCases } from '../tests/runtime/image-vk-cases.js';
import { pckResinfoCases } from '../tests/runtime/cases-image-pck.js';
import type { EngineCase } from '../tests/runtime/cases.js';

const seen = new Set<string>();
let total = 0;
const t0 = Date.now();
function measure(c: EngineCase): void {
  const key = c.spirvName ?? c.name;
  if (seen.has(key)) return;
  seen.add(key);
  const n = recompile(c.shader, { profile: LAVAPIPE_PROFILE }).spirv.length;
  total += n;
  console.log(`${key}\t${n}`);
}
for (const c of imageCases()) measure(c);
for (const c of imageFloatAtomicCases()) measure(c);
for (const c of imageVkCases()) measure(c);
for (const [c] of pckResinfoCases()) measure(c);
console.log(`total\t${total}\t(${seen.size} kernels, ${Date.now() - t0} ms)`);
