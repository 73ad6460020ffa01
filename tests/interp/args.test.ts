// The ARGS.json parser and the shared dispatch layout (src/interp/args.ts, dispatch.ts) on the
// metadata of real clang-19 code objects (tests/fixtures/opencl/args.cl, built with
// -cl-kernel-arg-info; interp-int.cl without): where each kind of argument lands in the kernarg
// segment, the dynamic LDS placement (offsets worked out here by hand from ROCclr's rule: start at
// the static group segment, align each __local argument to its .pointee_align, add its size), the
// hidden dynamic LDS size, loop counters, and every disagreement between a document and the
// metadata as one ArgsError line naming the place and the argument. Fuzzed documents only ever
// give ArgsErrors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import type { Shader } from '../../src/container/shader.js';
import { loadShaders } from '../../src/container/shader.js';
import { ArgsError, MAX_DISPATCHES, parseArgs, planSteps, prepareDispatch, type ArgsPlan, type DispatchTemplate } from '../../src/interp/args.js';
import { dispatch, dispatchPacket, kernargSegment, launchRefusal, layoutLds, MAX_LDS } from '../../src/interp/dispatch.js';
import { GlobalMemory } from '../../src/interp/memory.js';
import { buildCfg } from '../../src/analysis/cfg.js';
import { analyzeMode } from '../../src/analysis/mode.js';
import { translate } from '../../src/frontend/index.js';
import { dispatchIr } from '../../src/ir/dispatch.js';
import { InterpError } from '../../src/interp/errors.js';
import { buildOpenCl } from '../harness/opencl.js';
import { compileArgs } from './args-cases.js';

const load = (file: string) => loadShaders({ bytes: new Uint8Array(readFileSync(file)), name: file });
const all = load(compileArgs(false));
const kernel = (name: string): Shader => {
  const s = all.find((k) => k.info.name === name);
  assert.ok(s, name);
  return s;
};
const one = (doc: object, name: string): DispatchTemplate => {
  const p = parseArgs(doc, [kernel(name)]);
  const it = p.items[0];
  assert.ok(it && 'dispatch' in it);
  return it.dispatch;
};
const u32At = (b: Uint8Array, o: number) => new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(o, true);
const rejects = (f: () => unknown, re: RegExp) => assert.throws(f, (e: unknown) => e instanceof ArgsError && re.test(e.message) && !e.message.includes('\n'), String(re));

const locals = (scratch: number, wide: number) => ({ kernel: 'local_sum', grid: [64], block: [64], args: [{ buffer: 'i32', size: 256 }, { buffer: 'i32', size: 12 }, { local: scratch }, { local: wide }] });

test('__local arguments: after the static group segment, each at its pointee alignment; the hidden dynamic LDS size; the 64 KiB limit', () => {
  const info = kernel('local_sum').info;
  // What clang-19 made of the kernel (the facts the layout starts from).
  assert.equal(info.ldsSize, 12); // __local int tag[3]
  const meta = (info.args ?? []).filter((a) => a.valueKind === 'dynamic_shared_pointer');
  assert.deepEqual(meta.map((a) => [a.offset, a.size, a.pointeeAlign]), [[16, 4, 4], [20, 4, 8]]);
  // 12 → scratch at 12 (align 4), 12 + 256 = 268 → wide at 272 (align 8), total 272 + 512 = 784.
  const t = one(locals(256, 512), 'local_sum');
  assert.deepEqual([u32At(t.kernarg, 16), u32At(t.kernarg, 20), t.groupSegmentSize], [12, 272, 784]);
  // 12 → 12; 12 + 516 = 528 is 8-aligned → 528; total 528 + 1030 = 1558.
  const t2 = one(locals(516, 1030), 'local_sum');
  assert.deepEqual([u32At(t2.kernarg, 16), u32At(t2.kernarg, 20), t2.groupSegmentSize], [12, 528, 1558]);
  // 12 + 5 = 17 → 24.
  const t3 = one(locals(5, 8), 'local_sum');
  assert.deepEqual([u32At(t3.kernarg, 16), u32At(t3.kernarg, 20), t3.groupSegmentSize], [12, 24, 32]);
  // The hidden argument (code object v5) and the packet's group_segment_size.
  const dyn = (info.args ?? []).find((a) => a.valueKind === 'hidden_dynamic_lds_size');
  assert.ok(dyn);
  assert.equal(u32At(kernargSegment(info, t.kernarg, [64, 1, 1], [64, 1, 1], t.groupSegmentSize), dyn.offset), 784 - 12);
  assert.equal(u32At(kernargSegment(info, t.kernarg, [64, 1, 1], [64, 1, 1]), dyn.offset), 0);
  assert.equal(u32At(dispatchPacket([64, 1, 1], [64, 1, 1], 0, t.groupSegmentSize, 0), 28), 784);
  // Exactly the limit fits (12 + 65516 = 65528, 8-aligned, + 8); one byte more is an error naming the arguments.
  assert.equal(one(locals(65516, 8), 'local_sum').groupSegmentSize, MAX_LDS);
  rejects(() => one(locals(65516, 9), 'local_sum'), /^LDS: 12 static bytes and the __local arguments \(argument 2 \(scratch\): 65516 at 12; argument 3 \(wide\): 9 at 65528\) need 65537 bytes, more than the 65536 a workgroup has$/);
  // 12 + 65517 = 65529 → wide at 65536: over with a single byte.
  rejects(() => one(locals(65517, 1), 'local_sum'), /need 65537 bytes/);
  const zero = locals(64, 64);
  zero.args[2] = { local: 0 };
  rejects(() => one(zero, 'local_sum'), /^argument 2 \(scratch\): "local" must be a byte count of at least 1$/);
  assert.throws(() => layoutLds(info, [{ offset: 16, size: 4, bytes: 4, align: 12, where: 'argument 2' }]), (e: unknown) => e instanceof InterpError && /pointee alignment 12 is not a power of two/.test(e.message));
});

test('a block over the kernel\'s .max_flat_workgroup_size is refused by the parser and by each engine\'s dispatch, in one line', () => {
  const info = kernel('local_sum').info;
  // clang-19's default for an OpenCL kernel without reqd_work_group_size or amdgpu_flat_work_group_size.
  assert.equal(info.maxWorkgroupSize, 256);
  const doc = (n: number) => ({ ...locals(64, 64), grid: [n], block: [n] });
  assert.equal(one(doc(256), 'local_sum').block[0], 256);
  rejects(() => one(doc(512), 'local_sum'), /^kernel local_sum allows at most 256 work-items per workgroup \(its metadata's \.max_flat_workgroup_size\); the dispatch's block 512x1x1 has 512$/);
  assert.equal(launchRefusal(info, [512, 1, 1], [256, 1, 1]), undefined);
  assert.match(launchRefusal(info, [512, 1, 1], [16, 4, 8]) ?? '', /the dispatch's block 16x4x8 has 512$/);
  // The interpreter's and the IR interpreter's dispatch ask the same question (documents are not the only way in).
  const shader = kernel('local_sum');
  const bad = { grid: [512, 1, 1] as const, block: [512, 1, 1] as const, kernarg: new Uint8Array(256), mem: new GlobalMemory(), maxSteps: 1000 };
  assert.throws(() => dispatch(shader, bad), (e: unknown) => e instanceof InterpError && /allows at most 256 work-items per workgroup/.test(e.message));
  const cfg = buildCfg(shader);
  assert.throws(() => dispatchIr(translate(shader, cfg, analyzeMode(shader, cfg)), shader, bad), (e: unknown) => e instanceof Error && /allows at most 256 work-items per workgroup/.test(e.message));
});

test('by-value arguments: structs as bytes, vectors (3-vectors in 4 lanes), 64-bit values, at the metadata offsets; sizes and kinds checked', () => {
  const bytes = Buffer.alloc(40);
  for (let i = 0; i < 40; i++) bytes[i] = i * 7 + 1;
  const s = one({ grid: [1], block: [1], args: [{ buffer: 'f32', size: 4 }, { buffer: 'i32', size: 4 }, { bytes: bytes.toString('base64') }] }, 'struct_arg');
  assert.deepEqual([...s.kernarg.subarray(16, 56)], [...bytes]);
  assert.deepEqual(s.bufferSlots, [{ offset: 0, buffer: 0 }, { offset: 8, buffer: 1 }]);
  const v = one({ grid: [1], block: [1], args: [{ buffer: 'f32', size: 16 }, { buffer: 'f32', size: 16 }, { f32x4: [1.5, -2, 1e-3, 65504] }, { i32x4: [-1, 2, -3, 2147483647] }, { f32x3: [0.5, 7, -0] }, { u32: 9 }] }, 'vec_arg');
  assert.deepEqual([...v.kernarg.subarray(16, 32)], [...new Uint8Array(new Float32Array([1.5, -2, 1e-3, 65504]).buffer)]);
  assert.deepEqual([...v.kernarg.subarray(32, 48)], [...new Uint8Array(new Int32Array([-1, 2, -3, 2147483647]).buffer)]);
  assert.deepEqual([...v.kernarg.subarray(48, 64)], [...new Uint8Array(new Float32Array([0.5, 7, -0, 0]).buffer)]);
  assert.equal(u32At(v.kernarg, 64), 9);
  const w = one({ grid: [1], block: [1], args: [{ buffer: 'u64', size: 8 }, { u64: '0xfedcba9876543210' }, { u64x2: ['18446744073709551615', 77] }] }, 'wide_arg');
  const wv = new DataView(w.kernarg.buffer);
  assert.deepEqual([wv.getBigUint64(8, true), wv.getBigUint64(16, true), wv.getBigUint64(24, true)], [0xfedcba9876543210n, 2n ** 64n - 1n, 77n]);

  const doc = (k: number, a: object) => { const args: object[] = [{ buffer: 'f32', size: 16 }, { buffer: 'f32', size: 16 }, { f32x4: [1, 2, 3, 4] }, { i32x4: [1, 2, 3, 4] }, { f32x3: [1, 2, 3] }, { u32: 1 }]; args[k] = a; return { grid: [1], block: [1], args }; };
  rejects(() => one(doc(2, { f32x2: [1, 2] }), 'vec_arg'), /^argument 2 \(k\): the kernel's argument is 16 bytes \(float4\); a f32x2 is 8$/);
  rejects(() => one(doc(2, { f32: 1 }), 'vec_arg'), /argument 2 \(k\): the kernel's argument is 16 bytes \(float4\); a f32 is 4/);
  rejects(() => one(doc(2, { f32x4: [1, 2, 3] }), 'vec_arg'), /"f32x4" must be a list of 4 f32 values/);
  rejects(() => one(doc(2, { f32x5: [1, 2, 3, 4, 5] }), 'vec_arg'), /unknown value type "f32x5"/);
  rejects(() => one(doc(3, { i32x4: [1, 2, 3, 2 ** 31] }), 'vec_arg'), /argument 3 \(m\): element 3 \(2147483648\) is not a i32/);
  rejects(() => one(doc(2, { bytes: Buffer.alloc(15).toString('base64') }), 'vec_arg'), /argument 2 \(k\): the kernel's argument is 16 bytes \(float4\); "bytes" has 15/);
  rejects(() => one(doc(5, { buffer: 'u32', size: 4 }), 'vec_arg'), /argument 5 \(n\): the kernel takes a 4-byte value \(uint\), not a buffer/);
  rejects(() => one(doc(5, { local: 4 }), 'vec_arg'), /argument 5 \(n\): the kernel takes a 4-byte value \(uint\), not a __local pointer/);
  rejects(() => one(doc(0, { u64: '1' }), 'vec_arg'), /argument 0 \(out\): the kernel takes a global buffer \(float4\*\)/);
  rejects(() => one({ ...locals(4, 4), args: [{ buffer: 'i32', size: 4 }, { buffer: 'i32', size: 4 }, { u32: 4 }, { local: 4 }] }, 'local_sum'), /argument 2 \(scratch\): the kernel takes a __local pointer \(int\*\): give \{"local": BYTES\}/);
  rejects(() => one(doc(5, { u32: { index: 'k' } }), 'vec_arg'), /"index" must name an enclosing loop's counter \(there is no loop/);
});

test('arguments by name: every explicit argument once; names need -cl-kernel-arg-info', () => {
  const byName = { grid: [1], block: [1], args: { x: { u64: 5 }, out: { buffer: 'u64', size: 8 }, y: { u64x2: [1, 2] } } };
  const t = one(byName, 'wide_arg');
  assert.equal(new DataView(t.kernarg.buffer).getBigUint64(8, true), 5n);
  rejects(() => one({ ...byName, args: { ...byName.args, z: { u32: 1 } } }, 'wide_arg'), /^"args" names "z", which kernel wide_arg has no argument of \(out, x, y\)$/);
  rejects(() => one({ ...byName, args: { out: byName.args.out, y: byName.args.y } }, 'wide_arg'), /^argument 1 \(x\) is missing from "args"$/);
  const collatz = load(buildOpenCl('interp-int.cl')).find((s) => s.info.name === 'collatz');
  assert.ok(collatz);
  rejects(() => parseArgs({ grid: [1], block: [1], args: { a: {} } }, [collatz]), /kernel collatz's metadata has no name for argument 0 \(build with -cl-kernel-arg-info\): give "args" as a list/);
  rejects(() => one({ ...byName, args: [byName.args.out] }, 'wide_arg'), /^kernel wide_arg takes 3 arguments \(out, x, y\); "args" has 1$/);
});

/** The u32s at kernarg offsets 12 and 8 (lu_col's and lu_sub's k and n) of every step of a plan. */
const kn = (plan: ArgsPlan) => [...planSteps(plan)].map((s) => [s.template.shader.info.name, u32At(s.kernarg, 12), u32At(s.kernarg, 8), s.ordinal]);

test('sequences: named buffers by reference, nested loops with start/step, counters plus add, steps in order', () => {
  const seq = {
    buffers: { A: { buffer: 'f32', size: 64 }, B: { buffer: 'u32', data: [1, 2] } },
    dispatches: [
      { kernel: 'lu_col', grid: [4], block: [4], args: [{ ref: 'B' }, { u32: 99 }, { u32: 7 }] },
      { repeat: 2, index: 'i', start: 10, step: 5, dispatches: [
        { repeat: 3, index: 'j', start: 2, step: -1, dispatches: [
          { kernel: 'lu_col', grid: [4], block: [4], args: [{ ref: 'A' }, { u32: { index: 'j', add: 100 } }, { u32: { index: 'i' } }] },
        ] },
        { kernel: 'lu_sub', grid: [4, 4], block: [2, 2], args: { a: { ref: 'A' }, n: { u32: 1 }, k: { u32: { index: 'i', add: -10 } } } },
      ] },
    ],
  };
  const plan = parseArgs(seq, all);
  assert.equal(plan.sequence, true);
  assert.equal(plan.dispatches, 9);
  assert.deepEqual(plan.kernels.map((s) => s.info.name), ['lu_col', 'lu_sub']);
  assert.deepEqual(plan.buffers.map((b) => [b.name, b.type, b.bytes.length]), [['A', 'f32', 64], ['B', 'u32', 8]]);
  assert.deepEqual(kn(plan), [
    ['lu_col', 7, 99, 0],
    ['lu_col', 10, 102, 1], ['lu_col', 10, 101, 2], ['lu_col', 10, 100, 3], ['lu_sub', 0, 1, 4],
    ['lu_col', 15, 102, 5], ['lu_col', 15, 101, 6], ['lu_col', 15, 100, 7], ['lu_sub', 5, 1, 8],
  ]);
  const steps = [...planSteps(plan)];
  assert.deepEqual(steps[0]?.template.bufferSlots, [{ offset: 0, buffer: 1 }]);
  assert.deepEqual(steps[6]?.counters, [{ name: 'i', value: 15 }, { name: 'j', value: 1 }]);
  // A step without counters shares its template's bytes; one with counters has its own.
  assert.equal(steps[0]?.kernarg, steps[0]?.template.kernarg);
  assert.notEqual(steps[1]?.kernarg, steps[1]?.template.kernarg);
  // A loop of 0 runs nothing; the dispatch count multiplies out.
  assert.equal(parseArgs({ buffers: seq.buffers, dispatches: [{ repeat: 0, dispatches: seq.dispatches }] }, all).dispatches, 0);
  assert.equal(parseArgs({ buffers: seq.buffers, dispatches: [{ repeat: 1000, dispatches: [{ repeat: 1000, dispatches: [seq.dispatches[0]] }] }] }, all).dispatches, 1_000_000);
});

test('sequences: every mistake is one line naming the place', () => {
  const d0 = { kernel: 'lu_col', grid: [4], block: [4], args: [{ ref: 'A' }, { u32: 1 }, { u32: 2 }] };
  const seq = (dispatches: unknown, buffers: unknown = { A: { buffer: 'f32', size: 4 } }) => () => parseArgs({ buffers, dispatches }, all);
  rejects(seq([{ ...d0, args: [{ ref: 'Z' }, { u32: 1 }, { u32: 2 }] }]), /^dispatches\[0\]: argument 0 \(a\): "ref" must name one of "buffers" \("A"\)$/);
  rejects(seq([{ ...d0, args: [{ buffer: 'f32', size: 4 }, { u32: 1 }, { u32: 2 }] }]), /^dispatches\[0\]: argument 0 \(a\): the kernel takes a global buffer \(float\*\): in a sequence give \{"ref": NAME\} of "buffers"$/);
  rejects(() => parseArgs({ grid: [4], block: [4], args: [{ ref: 'A' }, { u32: 1 }, { u32: 2 }] }, [kernel('lu_col')]), /^argument 0 \(a\): \{"ref": NAME\} names a buffer of "buffers", which only a sequence \("dispatches"\) has$/);
  rejects(seq([{ repeat: 2, index: 'k', dispatches: [{ repeat: 2, index: 'k', dispatches: [d0] }] }]), /^dispatches\[0\]\.dispatches\[0\]: "index" "k" is already the counter of an enclosing loop$/);
  rejects(seq([{ repeat: 3, index: 'k', start: 1, step: -1, dispatches: [{ ...d0, args: [{ ref: 'A' }, { u32: 1 }, { u32: { index: 'k' } }] }] }]), /^dispatches\[0\]\.dispatches\[0\]: argument 2 \(k\): counter "k" \+ 0 reaches -1, which is not a u32$/);
  rejects(seq([{ repeat: 2, index: 'k', dispatches: [{ ...d0, args: [{ ref: 'A' }, { u32: 1 }, { u32: { index: 'j' } }] }] }]), /"index" must name an enclosing loop's counter \("k"\)/);
  rejects(seq([{ repeat: 2, index: 'k', dispatches: [{ ...d0, args: [{ ref: 'A' }, { u32: 1 }, { u32: { index: 'k', times: 2 } }] }] }]), /unknown field "times"/);
  rejects(seq([{ repeat: 2 ** 12, dispatches: [{ repeat: 2 ** 12, dispatches: [d0, d0] }] }]), new RegExp(`^dispatches\\[0\\]: the document asks for more than ${MAX_DISPATCHES} dispatches$`));
  rejects(seq([{ repeat: -1, dispatches: [d0] }]), /^dispatches\[0\]: "repeat" must be a count from 0 to/);
  rejects(seq([{ repeat: 1 }]), /^dispatches\[0\]: a loop needs "dispatches"$/);
  rejects(seq([{ repeat: 2, start: 0.5, dispatches: [d0] }]), /"start" and "step" must be integers/);
  rejects(seq([{ ...d0, repeat: 2 }]), /^dispatches\[0\]: unknown field "kernel" \(a loop has repeat, index, start, step, dispatches\)$/);
  rejects(seq([{ ...d0, times: 2 }]), /^dispatches\[0\]: unknown field "times" \(a dispatch has kernel, grid, block, args;/);
  rejects(seq([{ ...d0, kernel: undefined }]), /^dispatches\[0\]: name the kernel \("kernel": one of local_sum, struct_arg/);
  rejects(seq([{ ...d0, kernel: 'nope' }]), /^dispatches\[0\]: no kernel named 'nope' \(local_sum, /);
  rejects(seq([{ ...d0, grid: [0] }]), /^dispatches\[0\]: "grid" must be a list of 1 to 3 positive integers$/);
  rejects(seq('x'), /^dispatches: must be a list of dispatches and loops$/);
  rejects(seq([d0], []), /^"buffers" must be an object/);
  rejects(seq([d0], { A: { buffer: 'f33', size: 4 } }), /^buffer "A": "buffer" must be one of f32/);
  rejects(() => parseArgs({ dispatches: [], args: [] }, all), /^unknown field "args" \(a sequence has buffers, dispatches; one dispatch has kernel, grid, block, args\)$/);
  // A sequence of one kernel needs no "kernel".
  assert.equal(parseArgs({ buffers: { A: { buffer: 'f32', size: 4 } }, dispatches: [{ ...d0, kernel: undefined }] }, [kernel('lu_col')]).dispatches, 1);
});

test('one-dispatch documents as before: prepareDispatch maps the buffers and writes their addresses', () => {
  const p = prepareDispatch({ kernel: 'wide_arg', grid: [2], block: [2], args: [{ buffer: 'u64', data: ['1', '2'] }, { u64: 3 }, { u64x2: [4, 5] }] }, kernel('wide_arg'));
  assert.equal(p.buffers.length, 1);
  assert.equal(new DataView(p.kernarg.buffer).getBigUint64(0, true), BigInt(p.buffers[0]?.address ?? -1));
  assert.equal(p.groupSegmentSize, 0);
  rejects(() => prepareDispatch({ dispatches: [] }, kernel('wide_arg')), /a sequence \("dispatches"\) has no single dispatch to prepare/);
});

test('fuzzed documents: an ArgsError of one line or a plan, never another exception', () => {
  const value = fc.oneof(
    fc.record({ u32: fc.oneof(fc.integer(), fc.record({ index: fc.constantFrom('k', 'j', 3), add: fc.integer({ min: -5, max: 5 }) }, { requiredKeys: [] })) }),
    fc.record({ f32x4: fc.array(fc.double(), { maxLength: 5 }) }),
    fc.record({ bytes: fc.oneof(fc.base64String(), fc.string()) }),
    fc.record({ local: fc.integer({ min: -2, max: 70000 }) }),
    fc.record({ ref: fc.constantFrom('A', 'B', 'Q') }),
    fc.record({ buffer: fc.constantFrom('u32', 'f32', 'x'), size: fc.integer({ min: -1, max: 64 }) }),
    fc.anything(),
  );
  const args = fc.oneof(fc.array(value, { maxLength: 7 }), fc.dictionary(fc.constantFrom('a', 'n', 'k', 'in', 'out', 'scratch', 'wide', 'x'), value, { maxKeys: 5 }));
  const dispatch = fc.record({ kernel: fc.constantFrom('lu_col', 'local_sum', 'struct_arg', 'vec_arg', 'nope'), grid: fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 4 }), block: fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 4 }), args }, { requiredKeys: [] });
  const item = fc.letrec((tie) => ({
    item: fc.oneof({ depthSize: 'small' }, dispatch, fc.record({ repeat: fc.integer({ min: -1, max: 3 }), index: fc.constantFrom('k', 'j', ''), start: fc.integer({ min: -3, max: 3 }), step: fc.integer({ min: -2, max: 2 }), dispatches: fc.array(tie('item'), { maxLength: 3 }) }, { requiredKeys: [] })),
  })).item;
  const doc = fc.oneof(
    fc.record({ buffers: fc.dictionary(fc.constantFrom('A', 'B'), fc.record({ buffer: fc.constantFrom('u32', 'f32'), size: fc.integer({ min: 0, max: 64 }) })), dispatches: fc.array(item, { maxLength: 4 }) }, { requiredKeys: [] }),
    dispatch,
    fc.anything(),
  );
  fc.assert(fc.property(doc, (d) => {
    try {
      const plan = parseArgs(d, all);
      for (const s of planSteps(plan)) assert.ok(s.kernarg instanceof Uint8Array);
    } catch (e) {
      assert.ok(e instanceof ArgsError, `${(e as Error).name}: ${(e as Error).message}`);
      assert.ok(!e.message.includes('\n'));
    }
  }), { numRuns: 3000 });
});
