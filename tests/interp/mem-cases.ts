// The ARGS documents of the OpenCL memory kernels (tests/fixtures/opencl/interp-mem.cl and
// kernels.cl): LDS tiles and reductions with barriers, __local atomics, scratch, a struct copy,
// lane crossing. The interpreter's tests (./memory.test.ts) and the Vulkan engine's
// (tests/runtime/breadth.test.ts) run the same documents against pocl.

export const ints = (n: number, f: (i: number) => number): number[] => Array.from({ length: n }, (_, i) => f(i) | 0);

/** interp-mem.cl's kernels; `scratch`: the kernel uses private (scratch) memory. */
export const MEM_CASES: readonly { kernel: string; doc: object; scratch?: true }[] = [
  { kernel: 'tile_reverse64', doc: { grid: [256, 1, 1], block: [128, 1, 1], args: [{ buffer: 'i64', data: Array.from({ length: 256 }, (_, i) => String(BigInt(i) * 0x100000001n - 77n)) }] } },
  { kernel: 'tree_reduce', doc: { grid: [384, 1, 1], block: [128, 1, 1], args: [{ buffer: 'i32', data: ints(384, (i) => ((i * 7919) % 2001) - 1000) }, { buffer: 'i32', size: 36 }] } },
  { kernel: 'local_atomics', doc: { grid: [192, 1, 1], block: [96, 1, 1], args: [{ buffer: 'i32', data: ints(192, (i) => ((i * 48271) % 65537) - 30000) }, { buffer: 'i32', size: 80 }, { buffer: 'i32', size: 768 }] } },
  { kernel: 'private_mixed', scratch: true, doc: { grid: [80, 1, 1], block: [40, 1, 1], args: [{ buffer: 'i32', data: ints(80, (i) => (i * 13 + 5) % 97) }, { buffer: 'i32', size: 320 }] } },
  { kernel: 'struct_copy', scratch: true, doc: { grid: [128, 1, 1], block: [64, 1, 1], args: [{ buffer: 'u8', data: Array.from({ length: 128 * 24 }, (_, i) => (i * 29 + 3) & 0xff) }, { buffer: 'u8', size: 128 * 24 }] } },
  { kernel: 'local_narrow', doc: { grid: [256, 1, 1], block: [128, 1, 1], args: [{ buffer: 'i32', data: ints(256, (i) => i * 2654435761) }, { buffer: 'i32', size: 1024 }] } },
  { kernel: 'lanes', doc: { grid: [128, 1, 1], block: [64, 1, 1], args: [{ buffer: 'i32', data: ints(128, (i) => i * 1000003 + 17) }, { buffer: 'i32', size: 1536 }] } },
];

/** kernels.cl's LDS kernel (a tile reversed across the waves of a workgroup). */
export const REVERSE_TILE_DOC = { kernel: 'reverse_tile', grid: [512, 1, 1], block: [256, 1, 1], args: [{ buffer: 'i32', data: ints(512, (i) => i * 2246822519 + 3) }] };

/** kernels.cl's scratch kernel (a private table, MUBUF through the private segment buffer). */
export const PRIVATE_TABLE_DOC = { kernel: 'private_table', grid: [160, 1, 1], block: [80, 1, 1], args: [{ buffer: 'i32', data: ints(160, (i) => ((i * 7 + 3) % 50) - 5) }, { buffer: 'i32', size: 640 }] };
