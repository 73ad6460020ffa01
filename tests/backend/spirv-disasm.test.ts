// The SPIR-V disassembler (src/backend/spirv/disasm.ts) against its oracle, SPIRV-Tools'
// `spirv-dis --raw-id --no-color` (tests/harness/spirv-dis.ts); no expected text is written here.
// The text of every module the recompiler emits for a corpus (the slice kernels of
// tests/frontend/kernels.ts and a float kernel under several MODE values, wave32 and wave64, the
// bundled sample, clang-19 OpenCL kernels; each for every named profile, and with its control flow
// forced to the state machine) is spirv-dis's byte for
// byte, and so is that of modules written word by word for the corners of the format. Malformed
// modules are one-line SpirvDisasmErrors naming the word offset (spirv-dis rejects them too);
// random and mutated modules never crash or hang, and where spirv-dis accepts a mutant, the
// texts are equal. `rdna compile --emit spirv-asm` writes the same text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { loadShaders, type Shader } from '../../src/container/shader.js';
import { recompile } from '../../src/backend/recompile.js';
import { LAVAPIPE_PROFILE, PROFILES, type TargetProfile } from '../../src/backend/profile.js';
import { pairKernel } from '../runtime/cases.js';
import { disassembleSpirv, SpirvDisasmError } from '../../src/backend/spirv/disasm.js';
import { CORE_GRAMMAR } from '../../tools/gen-spirv-grammar.js';
import { assembleShaders } from '../harness/kernel.js';
import { buildOpenCl } from '../harness/opencl.js';
import { Rng } from '../harness/rng.js';
import { assertSameAsSpirvDis, firstDifference, spirvDis } from '../harness/spirv-dis.js';
import { sliceKernels } from '../frontend/kernels.js';
import { testCacheEnv } from '../harness/cache-env.js';

const SAMPLE = new URL('../../samples/vector_add.gfx1030.o', import.meta.url).pathname;
const BIN = new URL('../../bin/rdna', import.meta.url).pathname;

/** f32 ops with literal operands (a NaN, -inf, a subnormal, pi, 0.1) that become OpConstants when native. */
const floatBody = (wave64: boolean): string => pairKernel(5, `
  v_add_f32 v5, 0.5, v3
  v_mul_f32 v6, 0x40490fdb, v4
  v_sub_f32 v7, 0x7fc00000, v3
  v_fma_f32 v8, v3, v4, 1.0
  v_max_f32 v9, 0xff800000, v3
  v_min_f32 v10, 1, v4
  v_cmp_lt_f32 ${wave64 ? 'vcc' : 'vcc_lo'}, 0x3dcccccd, v3
  v_cndmask_b32 v11, v5, v6, ${wave64 ? 'vcc' : 'vcc_lo'}
  v_cvt_f32_u32 v12, v1
  global_store_dwordx4 v2, v[5:8], s[6:7]
  global_store_dwordx4 v2, v[9:12], s[6:7] offset:16
  s_endpgm`);

interface Emitted { readonly name: string; readonly words: Uint32Array }
let corpusCache: Emitted[] | undefined;

/** Every module the recompiler emits for the corpus, under every named profile. */
function corpus(): Emitted[] {
  if (corpusCache) return corpusCache;
  const shaders: [string, Shader][] = [];
  const wg = ['.amdhsa_system_sgpr_workgroup_id_x 1'];
  for (const wave64 of [false, true]) {
    shaders.push(...assembleShaders('gfx1030', sliceKernels(wave64).map((k) => ({ ...k, vgprs: 32, sgprs: 32, directives: wg }))));
    for (const floatMode of [0xf0, 0xc0, 0x00, 0xf3]) {
      const name = `f32lit${wave64 ? 64 : 32}_${floatMode.toString(16)}`;
      shaders.push(...assembleShaders('gfx1030', [{ name, body: floatBody(wave64), wave64, floatMode, vgprs: 16, sgprs: 16, directives: wg }]));
    }
    const cl = loadShaders({ bytes: new Uint8Array(readFileSync(buildOpenCl('interp-int.cl', { wave64 }))), name: 'interp-int' });
    for (const s of cl) shaders.push([`${s.info.name}${wave64 ? 64 : 32}`, s]);
  }
  for (const s of loadShaders({ bytes: new Uint8Array(readFileSync(SAMPLE)), name: 'vector_add' })) shaders.push([`sample ${s.info.name}`, s]);
  const out: Emitted[] = [];
  // Beside the named profiles, a device that promises f32 round-to-nearest with denormals kept (as
  // RADV does): under MODE 0xf0 its f32 add/sub/mul/compares are native, so float constants appear.
  const nativeF32: TargetProfile = { ...LAVAPIPE_PROFILE, name: 'native-f32', f32: { ...LAVAPIPE_PROFILE.f32, denormPreserve: true } };
  for (const [name, shader] of shaders) {
    for (const profile of [...Object.values(PROFILES), nativeF32]) out.push({ name: `${name} (${profile.name})`, words: recompile(shader, { profile }).spirv });
    // The state machine (the control flow of irreducible CFGs), forced: its OpSwitch.
    out.push({ name: `${name} (state machine)`, words: recompile(shader, { stateMachine: true }).spirv });
  }
  corpusCache = out;
  return out;
}

test('every module the recompiler emits for the corpus disassembles exactly as spirv-dis prints it', () => {
  const modules = corpus();
  assert.ok(modules.length >= 60, `corpus of ${modules.length} modules`);
  const text = modules.map((m) => disassembleSpirv(m.words)).join('');
  // The corpus reaches the formats that matter: OpSwitch cases, structured control flow, phis, float constants, GLSL.std.450, masks.
  for (const re of [/OpSwitch %\d+ %\d+ 0 %\d+ 1 %\d+/, /OpLoopMerge %\d+ %\d+ None\n/, /OpSelectionMerge %\d+ None\n/, / = OpPhi %\d+ %\d+ %\d+ %\d+ %\d+\n/, /OpConstant %\d+ 0\.5\n/, /OpConstant %\d+ 0x1\.8p\+128\n/, / = OpExtInst %\d+ %\d+ \w+/, / Aligned \d+/]) {
    assert.match(text, re);
  }
  for (const m of modules) assertSameAsSpirvDis(m.words, m.name);
});

/** Little helpers to write modules word by word. */
const str = (s: string): number[] => {
  const b = [...Buffer.from(s, 'utf8'), 0];
  while (b.length % 4 !== 0) b.push(0);
  return Array.from({ length: b.length / 4 }, (_, i) => ((b[4 * i] ?? 0) | ((b[4 * i + 1] ?? 0) << 8) | ((b[4 * i + 2] ?? 0) << 16) | ((b[4 * i + 3] ?? 0) << 24)) >>> 0);
};
const inst = (opcode: number, ...operands: (number | number[])[]): number[] => {
  const ws = operands.flat();
  return [((ws.length + 1) << 16 | opcode) >>> 0, ...ws];
};
interface Header { readonly version?: number; readonly generator?: number; readonly bound?: number; readonly schema?: number }
const spv = (body: number[][], h: Header = {}): Uint32Array =>
  new Uint32Array([0x07230203, h.version ?? 0x10500, h.generator ?? 0, h.bound ?? 100, h.schema ?? 0, ...body.flat()]);
const byteSwapped = (m: Uint32Array): Uint32Array => m.map((w) => (((w & 0xff) << 24) | ((w & 0xff00) << 8) | ((w >>> 8) & 0xff00) | (w >>> 24)) >>> 0);

// Opcodes and enum values used below (SPIR-V spec numbers).
const [OpCapability, OpMemoryModel, OpEntryPoint, OpExecutionMode, OpExtInstImport, OpExtInst] = [17, 14, 15, 16, 11, 12];
const [OpTypeInt, OpTypeFloat, OpTypeVector, OpConstant, OpSpecConstantOp, OpDecorate, OpLabel, OpPhi] = [21, 22, 23, 43, 52, 71, 248, 245];
const [OpLoopMerge, OpSelectionMerge, OpSwitch, OpStore, OpLoad, OpImageSampleImplicitLod, OpSource, OpName, OpMemberName, OpExtension] = [246, 247, 251, 62, 61, 87, 3, 5, 6, 10];
const prologue = [inst(OpCapability, 1), inst(OpMemoryModel, 0, 1)];

test('the corners of the format print as spirv-dis prints them: literal widths, float classes, masks, strings, OpSwitch, headers, big-endian', () => {
  const f32 = (bits: number, id: number): number[] => inst(OpConstant, 21, id, bits);
  const f64 = (hi: number, lo: number, id: number): number[] => inst(OpConstant, 27, id, lo, hi);
  const f16 = (bits: number, id: number): number[] => inst(OpConstant, 32, id, bits);
  const literals = spv([...prologue,
    inst(OpTypeInt, 2, 16, 1), inst(OpConstant, 2, 3, 0xffff), inst(OpConstant, 2, 4, 0xffffffff),
    inst(OpTypeInt, 5, 8, 0), inst(OpConstant, 5, 6, 0xff), inst(OpTypeInt, 7, 24, 1), inst(OpConstant, 7, 8, 0x800000),
    inst(OpTypeInt, 9, 128, 1), inst(OpConstant, 9, 10, [1, 2, 3, 4]), inst(OpTypeFloat, 11, 8), inst(OpConstant, 11, 12, 0x3f800000),
    inst(OpTypeFloat, 13, 128), inst(OpConstant, 13, 14, [0, 0, 0, 0]), inst(OpTypeFloat, 15, 48), inst(OpConstant, 15, 16, [0, 0x3ff00000]),
    inst(OpTypeInt, 19, 32, 1), inst(OpConstant, 19, 20, 0x80000000), inst(OpTypeInt, 17, 64, 0), inst(OpConstant, 17, 18, [0xffffffff, 0xffffffff]),
    inst(OpTypeFloat, 21, 32), inst(OpTypeFloat, 27, 64), inst(OpTypeFloat, 32, 16),
    ...[0, 0x80000000, 0x3dcccccd, 0x501502f9, 0x7f7fffff, 0x00800000, 0x7fffffff, 0x007fffff, 1, 0x7f800000, 0xff800000, 0x7fc00000, 0x4b800001, 0x3727c5ac, 0x38d1b717]
      .map((b, i) => f32(b, 40 + i)),
    f64(0x7ff00000, 0, 60), f64(0, 1, 61), f64(0x7fefffff, 0xffffffff, 62), f64(0x3ff80000, 0, 63), f64(0x430c6bf5, 0x26340002, 64), f64(0x3fb99999, 0x9999999a, 65), f64(0x80000000, 0, 66),
    ...[0x7c00, 0x8000, 0x1ffff, 0x7e01, 0x3e00, 0x0001, 0x03ff, 0].map((b, i) => f16(b, 70 + i)),
  ]);
  const rng = new Rng(5);
  const randomFloats = spv([...prologue, inst(OpTypeFloat, 2, 32), inst(OpTypeFloat, 3, 64),
    ...Array.from({ length: 400 }, (_, i) => (i % 2 === 0 ? inst(OpConstant, 2, 10 + i, rng.u32()) : inst(OpConstant, 3, 10 + i, rng.u32(), rng.u32())))], { bound: 500 });
  const operands = spv([inst(OpCapability, 1), inst(OpExtInstImport, 50, str('GLSL.std.450')), inst(OpExtInstImport, 51, str('NonSemantic.Anything')), inst(OpMemoryModel, 0, 1),
    inst(OpEntryPoint, 5, 60, str('ma"i\\n ü'), 61, 62), inst(OpExecutionMode, 60, 17, 8, 4, 1), inst(OpExecutionMode, 60, 4446),
    inst(OpDecorate, 60, 11, 28), inst(OpDecorate, 60, 30, 7), inst(OpDecorate, 60, 41, str('nm'), 1), inst(OpDecorate, 60, 11, 5319),
    inst(OpTypeInt, 2, 32, 0), inst(OpTypeInt, 3, 64, 1), inst(OpConstant, 2, 4, 7), inst(OpConstant, 3, 6, [0xfffffffe, 0xffffffff]),
    inst(OpTypeFloat, 7, 32), inst(OpConstant, 7, 8, 0x3f800000), inst(OpExtInst, 7, 9, 50, 31, 8), inst(OpExtInst, 7, 10, 50, 46, 8, 8, 8),
    inst(OpExtInst, 7, 13, 51, 77, 8, 9, 10), inst(OpSpecConstantOp, 2, 11, 128, 4, 4), inst(OpSpecConstantOp, 2, 12, 124, 4),
    inst(OpLoopMerge, 20, 21, 0x3), inst(OpLoopMerge, 20, 21, 0x18, 4, 5), inst(OpSelectionMerge, 20, 0),
    inst(OpSwitch, 4, 20, 1, 21, 2, 22), inst(OpSwitch, 6, 20, [5, 0], 21, [0xffffffff, 0x7fffffff], 22), inst(OpSwitch, 4, 20),
    inst(OpStore, 4, 8, 0x7, 16), inst(OpLoad, 2, 23, 4, 0x2, 16), inst(OpLoad, 2, 24, 4, 0), inst(OpImageSampleImplicitLod, 2, 25, 4, 5, 0x6, 8, 9, 10),
    inst(OpSource, 2, 450), inst(OpSource, 3, 100, 50, str('src')), inst(OpName, 4, str('')), inst(OpMemberName, 4, 3, str('x y')),
    inst(OpLabel, 30), inst(OpPhi, 2, 31, 4, 20, 5, 21), inst(OpPhi, 2, 32, 4, 20, 5),
    inst(5334, 2, 33, 4, 5), inst(4450, 2, 34, 4, 5, 0)], { version: 0x10600, generator: (99 << 16) | 3, schema: 5 });
  const cases: [string, Uint32Array][] = [['literals', literals], ['random f32/f64 bits', randomFloats], ['operands', operands],
    ['header only', spv([])], ['big-endian', byteSwapped(spv([...prologue, inst(OpExtension, str('SPV_abc')), inst(OpTypeInt, 2, 32, 0), inst(OpConstant, 2, 3, 0x12345678)]))]];
  for (const tool of [0, 1, 7, 8, 16, 36, 37, 0xffff]) cases.push([`generator ${tool}`, spv(prologue, { generator: (tool << 16) | 7 })]);
  for (const minor of [0, 3, 6]) cases.push([`version 1.${minor}`, spv(prologue, { version: 0x10000 | (minor << 8) })]);
  for (const [what, words] of cases) assertSameAsSpirvDis(words, what);
  // Without the header and the indentation, as spirv-dis --no-header --no-indent.
  const r = spawnSync('spirv-dis', ['--raw-id', '--no-color', '--no-header', '--no-indent', '-'], { input: Buffer.from(operands.buffer) });
  assert.equal(disassembleSpirv(operands, { header: false, indent: false }), r.stdout.toString('utf8'));
});

/** Asserts a SpirvDisasmError naming word `word`, one line, matching `re`; and that spirv-dis rejects the module too. */
function assertRejected(words: Uint32Array, word: number, re: RegExp): void {
  assert.throws(() => disassembleSpirv(words), (e: unknown) => {
    assert.ok(e instanceof SpirvDisasmError, String(e));
    assert.equal(e.word, word, e.message);
    assert.match(e.message, new RegExp(`^SPIR-V word ${word}: [^\\n]+$`));
    assert.match(e.message, re);
    return true;
  });
  assert.ok(!spirvDis(words).ok, `spirv-dis accepts a module rdna rejects with ${re}`);
}

test('malformed modules: a one-line SpirvDisasmError naming the word offset, where spirv-dis fails too', () => {
  const int = inst(OpTypeInt, 2, 32, 0);
  assertRejected(new Uint32Array([0x07230203, 0x10500, 0]), 3, /incomplete header: 3 words/);
  assertRejected(new Uint32Array([0x07230201, 0x10500, 0, 1, 0]), 0, /not SPIR-V: magic number 0x7230201/);
  assertRejected(spv(prologue, { version: 0x10700 }), 1, /version word 0x00010700 is not SPIR-V 1\.0 to 1\.6/);
  assertRejected(spv([...prologue, [21]]), 10, /instruction word count 0/);
  assertRejected(spv([...prologue, [(1 << 16) | 9999]]), 10, /opcode 9999 is not in the grammar table/);
  // Truncated: the word count runs past the end of the module, or the operands past the word count.
  assertRejected(spv([...prologue, int.slice(0, 3)]), 10, /OpTypeInt says it has 4 words, but the module ends 3 words after its start/);
  assertRejected(spv([...prologue, [(3 << 16) | OpTypeInt, 2, 32]]), 13, /OpTypeInt at word 10: 3 words are too few, LiteralInteger is missing/);
  assertRejected(spv([...prologue, int, [(5 << 16) | OpConstant, 2, 3, 1, 1]]), 18, /OpConstant at word 14: 5 words, but its operands end after 4/);
  assertRejected(spv([...prologue, inst(OpTypeInt, 2, 64, 0), [(4 << 16) | OpConstant, 2, 3, 1]]), 17, /a 64-bit literal runs past the instruction's 4 words/);
  assertRejected(spv([...prologue, [(2 << 16) | OpExtension, 0x41414141], [(2 << 16) | OpExtension, 0x00414141]]), 11, /no terminating nul within the instruction/);
  // Ids, types and enumerants that cannot be.
  assertRejected(spv([...prologue, int, inst(OpTypeInt, 2, 32, 1)]), 15, /id %2 is defined more than once/);
  assertRejected(spv([...prologue, inst(OpStore, 0, 8)]), 11, /OpStore at word 10: an id is 0/);
  assertRejected(spv([...prologue, inst(OpConstant, 9, 3, 4)]), 13, /type %9 is not a type/);
  assertRejected(spv([...prologue, int, inst(OpTypeVector, 4, 2, 4), inst(OpConstant, 4, 3, 4)]), 21, /type %4 is not a scalar numeric type/);
  assertRejected(spv([...prologue, int, inst(OpSwitch, 2, 3, 1, 4)]), 15, /the selector %2 is a type, not a value/);
  assertRejected(spv([...prologue, inst(OpTypeFloat, 2, 32), inst(OpConstant, 2, 3, 0), inst(OpSwitch, 3, 4, 1, 5)]), 18, /the selector %3 is not a scalar integer/);
  assertRejected(spv([...prologue, inst(OpStore, 4, 8, 0x80000000)]), 13, /MemoryAccess 2147483648 has the bit 0x80000000/);
  assertRejected(spv([...prologue, inst(OpDecorate, 4, 9999)]), 12, /9999 is not a Decoration/);
  assertRejected(spv([...prologue, inst(OpExtInstImport, 5, str('Foo'))]), 12, /"Foo" is not an extended instruction set spirv-dis knows/);
  assertRejected(spv([...prologue, int, inst(OpExtInst, 2, 3, 5, 31, 8)]), 17, /the instruction set %5 is not an OpExtInstImport result/);
  assertRejected(spv([...prologue, inst(OpExtInstImport, 5, str('GLSL.std.450')), int, inst(OpExtInst, 2, 3, 5, 200, 8)]), 24, /200 is not a GLSL\.std\.450 instruction/);
  assertRejected(spv([...prologue, inst(OpExtInstImport, 5, str('GLSL.std.450')), int, inst(OpExtInst, 2, 3, 5, 31, 8, 9)]), 26, /OpExtInst at word 20: 7 words, but its operands end after 6/);
});

test('what rdna reads that spirv-dis 2023.1 rejects, and what it cannot read that spirv-dis can (docs/TECHNICAL_DEBT.md)', () => {
  // Accepted: enumerants its SPIR-V 1.5 default environment does not offer, any result-typed opcode in OpSpecConstantOp.
  for (const body of [[inst(OpCapability, 71)], [inst(OpTypeInt, 2, 32, 0), inst(OpSpecConstantOp, 2, 3, 61, 4)]]) {
    const words = spv([...prologue, ...body]);
    assert.ok(!spirvDis(words).ok);
    assert.doesNotThrow(() => disassembleSpirv(words));
  }
  // Refused: vendor values and extended instruction sets other than GLSL.std.450 (and unknown NonSemantic.*).
  for (const body of [[inst(OpDecorate, 4, 11, 5253)], [inst(OpExtInstImport, 5, str('OpenCL.std')), inst(OpTypeInt, 2, 32, 0), inst(OpExtInst, 2, 3, 5, 1, 8)]]) {
    const words = spv([...prologue, ...body]);
    assert.ok(spirvDis(words).ok);
    assert.throws(() => disassembleSpirv(words), SpirvDisasmError);
  }
});

/**
 * A mutant of a module: words replaced (small values, random words, flipped bits), dropped,
 * duplicated, or the module cut short; `inPlace` keeps to replacements, which more often leave a
 * module spirv-dis still reads (a different enumerant, literal or id).
 */
function mutate(m: Uint32Array, rng: Rng, inPlace = false): Uint32Array {
  let w = [...m];
  const edits = 1 + rng.int(inPlace ? 2 : 4);
  for (let k = 0; k < edits; k++) {
    const i = 5 + rng.int(Math.max(1, w.length - 5));
    switch (rng.int(inPlace ? 3 : 6)) {
      case 0: w[i] = rng.int(64); break;
      case 1: w[i] = rng.u32(); break;
      case 2: w[i] = ((w[i] ?? 0) ^ (1 << rng.int(32))) >>> 0; break;
      case 3: w.splice(i, 1); break;
      case 4: w.splice(i, 0, w[i] ?? 0); break;
      default: w = w.slice(0, Math.max(5, i)); break;
    }
  }
  return new Uint32Array(w);
}

/** A random module: a real header, then instructions of known or random opcodes, word counts mostly right, small operand words. */
const randomModule: fc.Arbitrary<Uint32Array> = fc.array(fc.record({
  opcode: fc.oneof(fc.constantFrom(1, 3, 5, 11, 12, 15, 16, 17, 21, 22, 23, 43, 52, 61, 62, 71, 245, 246, 247, 251, 87, 4450), fc.integer({ min: 0, max: 0xffff })),
  operands: fc.array(fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 0xffffffff })), { maxLength: 8 }),
  countOff: fc.oneof(fc.constant(0), fc.integer({ min: -2, max: 2 })),
}), { maxLength: 30 }).map((insts) => new Uint32Array([0x07230203, 0x10500, 0, 64, 0,
  ...insts.flatMap((i) => [((((i.operands.length + 1 + i.countOff) & 0xffff) << 16) | i.opcode) >>> 0, ...i.operands])]));

const isOneLineError = (e: unknown, length: number): boolean =>
  e instanceof SpirvDisasmError && !e.message.includes('\n') && e.word >= 0 && e.word <= length;

test('fuzz: random and mutated modules either disassemble or give a one-line SpirvDisasmError, never a crash or hang (bounded time)', () => {
  const sources = corpus().map((m) => m.words);
  const mutant = fc.tuple(fc.nat(sources.length - 1), fc.integer({ min: 1, max: 0xffffffff })).map(([i, seed]) => mutate(sources[i] as Uint32Array, new Rng(seed)));
  fc.assert(fc.property(fc.oneof(randomModule, mutant), (words) => {
    try { disassembleSpirv(words); } catch (e) { assert.ok(isOneLineError(e, words.length), String(e)); }
  }), { numRuns: 1_000_000, interruptAfterTimeLimit: 5000, markInterruptAsFailure: false });
});

/** The full grammar: which opcodes and enum values exist only as left-out (vendor, pipe/enqueue) entries. */
interface JsonGrammar {
  instructions: { opname: string; opcode: number; class?: string }[];
  operand_kinds: { kind: string; enumerants?: { enumerant: string; value: number | string }[] }[];
}
const grammar = JSON.parse(readFileSync(CORE_GRAMMAR, 'utf8')) as JsonGrammar;
const VENDOR = /(INTEL|NV|NVX|AMD|AMDX|ALTERA|QCOM|ARM|HUAWEI|GOOGLE)$/;
const leftOutOp = (opcode: number): boolean => {
  const names = grammar.instructions.filter((i) => i.opcode === opcode);
  return names.length > 0 && names.every((i) => VENDOR.test(i.opname) || i.class === 'Pipe' || i.class === 'Device-Side_Enqueue');
};
const leftOutValue = (kind: string, value: number): boolean => {
  const es = (grammar.operand_kinds.find((k) => k.kind === kind)?.enumerants ?? []).filter((e) => (typeof e.value === 'string' ? Number.parseInt(e.value, 16) : e.value) === value);
  return es.length > 0 && es.every((e) => VENDOR.test(e.enumerant));
};
/** Whether rdna's error is a documented gap: a left-out grammar entry or an unsupported instruction set. */
function knownGap(message: string): boolean {
  let m = /opcode (\d+) is not in the grammar table/.exec(message);
  if (m) return leftOutOp(Number(m[1]));
  m = /: (\d+) is not a (\w+) in the grammar table/.exec(message);
  if (m) return leftOutValue(m[2] ?? '', Number(m[1]));
  m = /: (\w+) \d+ has the bit 0x([0-9a-f]+), which is not in the grammar table/.exec(message);
  if (m) return leftOutValue(m[1] ?? '', Number.parseInt(m[2] ?? '', 16));
  return /is not supported \(only GLSL\.std\.450\)/.test(message);
}
/** spirv-dis errors on what rdna accepts on purpose (its 1.5 environment; the OpSpecConstantOp opcode list). */
const spirvDisStricter = /Invalid OpSpecConstantOp opcode|Invalid capability operand: 71$|invalid mask component 16384$/m;

test('fuzz against spirv-dis: where it accepts a mutated module, the text is the same; where it rejects one, so does rdna', () => {
  const sources = corpus().map((m) => m.words);
  const rng = new Rng(6);
  let accepted = 0;
  for (let n = 0; n < 200; n++) {
    const words = mutate(rng.pick(sources), rng, true);
    const dis = spirvDis(words);
    let ours: string | undefined;
    let error = '';
    try { ours = disassembleSpirv(words); } catch (e) { assert.ok(isOneLineError(e, words.length), String(e)); error = (e as Error).message; }
    if (dis.ok) {
      accepted++;
      if (ours === undefined) { assert.ok(knownGap(error), `mutant ${n}: spirv-dis accepts it, rdna: ${error}`); continue; }
      // Invalid UTF-8 in a literal string: spirv-dis copies the bytes, rdna has U+FFFD (as TextDecoder).
      const theirs = dis.stdout.toString('utf8');
      assert.ok(ours === theirs, `mutant ${n}: ${firstDifference(ours, theirs)}`);
      if (!theirs.includes('\ufffd')) assert.ok(Buffer.from(ours, 'utf8').equals(dis.stdout), `mutant ${n}: bytes differ`);
    } else if (ours !== undefined) {
      assert.match(dis.stderr, spirvDisStricter, `mutant ${n}: spirv-dis rejects it (${dis.stderr.trim()}), rdna accepts it`);
    }
  }
  assert.ok(accepted > 40, `only ${accepted} of 200 mutants are valid for spirv-dis`);
});

test('rdna compile --emit spirv-asm: the module\'s text as spirv-dis prints it, to a file or standard output', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rdna-compile-asm-'));
  const obj = buildOpenCl('interp-int.cl');
  const rdna = (...a: string[]) => spawnSync(process.execPath, [BIN, ...a], { encoding: 'utf8', env: testCacheEnv() });
  const spv = join(dir, 'c.spv');
  const asm = join(dir, 'c.spvasm');
  assert.equal(rdna('compile', obj, '--kernel', 'collatz', '-o', spv).status, 0);
  const r = rdna('compile', obj, '--kernel', 'collatz', '--emit', 'spirv-asm', '-o', asm, '--json');
  assert.equal(r.status, 0, r.stderr);
  const doc = JSON.parse(r.stdout) as { output: string; emit: string; words: number };
  assert.equal(doc.emit, 'spirv-asm');
  assert.equal(doc.output, asm);
  assert.equal(doc.words * 4, readFileSync(spv).length);
  const dis = spirvDis(spv);
  assert.ok(dis.ok, dis.stderr);
  assert.ok(readFileSync(asm).equals(dis.stdout), firstDifference(readFileSync(asm, 'utf8'), dis.stdout.toString('utf8')));
  const out = spawnSync(process.execPath, [BIN, 'compile', obj, '--kernel', 'collatz', '--emit', 'spirv-asm', '-o', '-'], { env: testCacheEnv() });
  assert.equal(out.status, 0, out.stderr.toString());
  assert.ok(out.stdout.equals(dis.stdout));
  const bad = rdna('compile', obj, '--kernel', 'collatz', '--emit', 'spirv-text', '-o', asm);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--emit must be one of spirv, spirv-asm, ir/);
});
