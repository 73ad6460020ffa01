// The size of the transcendentals' lowering (src/ir/passes/lower-float-transcendental.ts): IR
// instructions of each core helper (per op, input flush off/on, form) and SPIR-V words of the
// engine kernels of tests/runtime/cases-transcendental.ts (each kernel under its first float
// mode) recompiled for the nvidia, portable and lavapipe profiles. The numbers of the
// "Transcendentals in the recompiler" row of docs/TECHNICAL_DEBT.md.
// Usage: node --import tsx tools/size-transcendental.ts [--ir]
import { transcendentalCoreHelper } from '../src/ir/passes/lower-float-transcendental.js';
import { recompile } from '../src/backend/recompile.js';
import { LAVAPIPE_PROFILE, NVIDIA_H200_PROFILE, PORTABLE_PROFILE } from '../src/backend/profile.js';
import type { IrFunction } from '../src/ir/ir.js';
import type { Op } from '../src/ir/ops.js';
import { transcendentalCases } from '../tests/runtime/cases-transcendental.js';

const count = (h: IrFunction) => h.blocks.reduce((s, b) => s + b.insts.length, 0);
for (const form of ['exact', 'device'] as const) {
  const row = (['FExp32', 'FLog32', 'FSin32', 'FCos32', 'FExp16', 'FLog16', 'FSin16', 'FCos16'] as Op[])
    .map((op) => `${op} ${[false, true].map((f) => count(transcendentalCoreHelper(op, f, form))).join('/')}`);
  console.log(`core IR instructions, ${form} (input flush off/on): ${row.join(', ')}`);
}
if (!process.argv.includes('--ir')) {
  const seen = new Set<string>();
  for (const c of transcendentalCases(1)) {
    const kernel = c.name.replace(/_.*$/, '');
    if (seen.has(kernel)) continue;
    seen.add(kernel);
    const words = [NVIDIA_H200_PROFILE, PORTABLE_PROFILE, LAVAPIPE_PROFILE].map((p) => `${p.name} ${recompile(c.shader, { profile: p }).spirv.length}`);
    console.log(`${c.name}: SPIR-V words ${words.join(', ')}`);
  }
}
