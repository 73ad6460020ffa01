// The SPIR-V module builder: modules built here are checked by the independent oracles of
// SPIRV-Tools (spirv-val accepts them for the Vulkan target environment; spirv-dis text equals the
// expected text written below, from the SPIR-V spec's layout and encoding rules). The generated
// grammar table is current with the installed SPIRV-Headers grammar. Every module written here is
// also a case for the disassembler (src/backend/spirv/disasm.ts): its text is spirv-dis's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { BuilderError, Module, type Id } from '../../src/backend/spirv/index.js';
import { OPS } from '../../src/backend/spirv/grammar.js';
import { renderInstalledGrammar } from '../../tools/gen-spirv-grammar.js';
import { assertSameAsSpirvDis } from '../harness/spirv-dis.js';

const dir = mkdtempSync(join(tmpdir(), 'rdna-spirv-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
let fileNo = 0;

function write(words: Uint32Array): string {
  const path = join(dir, `m${fileNo++}.spv`);
  writeFileSync(path, words);
  assertSameAsSpirvDis(words, `builder module ${path}`, path);
  return path;
}

/** spirv-val's verdict: '' when valid, its message otherwise. */
function validate(words: Uint32Array, env = 'vulkan1.2'): string {
  try {
    execFileSync('spirv-val', ['--target-env', env, write(words)], { encoding: 'utf8', stdio: 'pipe' });
    return '';
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; message: string };
    return `${err.stderr ?? ''}${err.stdout ?? ''}` || err.message;
  }
}

function assertValid(words: Uint32Array, env = 'vulkan1.2'): void {
  const verdict = validate(words, env);
  assert.equal(verdict, '', `spirv-val --target-env ${env} rejects the module:\n${verdict}\n${dis(words)}`);
}

/** spirv-dis text with raw ids, no indentation. */
function dis(words: Uint32Array): string {
  return execFileSync('spirv-dis', ['--raw-id', '--no-indent', '--no-color', write(words)], { encoding: 'utf8' }).trim();
}

const text = (s: string): string => s.trim().split('\n').map((l) => l.trim()).join('\n');

test('src/backend/spirv/grammar.ts is current with the installed SPIRV-Headers grammar (npm run gen:spirv)', () => {
  const committed = readFileSync(new URL('../../src/backend/spirv/grammar.ts', import.meta.url), 'utf8');
  assert.ok(committed === renderInstalledGrammar(), 'grammar.ts is stale: run npm run gen:spirv');
});

test('every grammar instruction is a Module method of its spec name; an existing type cannot take an allocated id', () => {
  const m = new Module();
  const names = Object.keys(OPS);
  assert.ok(names.length > 300 && names.includes('OpGroupNonUniformBallot') && names.includes('OpSDotKHR'));
  for (const name of names) assert.equal(typeof (m as unknown as Record<string, unknown>)[name], 'function', name);
  assert.ok(!names.some((n) => /(INTEL|NV)$/.test(n)), 'vendor instructions are left out');
  const u32 = m.OpTypeInt(32, 0);
  const later = m.allocateId();
  assert.throws(() => m.emit('OpTypeInt', [32, 0], later), /^BuilderError: OpTypeInt: is already defined as %1$/);
  assert.equal(m.emit('OpTypeInt', [32, 1], later), later);
  assert.equal(m.typeInfo(later)?.op, 'OpTypeInt');
  assert.deepEqual(m.typeInfo(u32)?.operands, [32, 0]);
  assert.equal(m.typeOf(m.constant(u32, 3)), u32);
});

test('a minimal compute shader: header bound, layout order, ids in call order', () => {
  const m = new Module({ version: '1.3' });
  m.OpCapability('Shader');
  m.OpMemoryModel('Logical', 'GLSL450');
  const voidT = m.OpTypeVoid(); // %1
  const fnT = m.OpTypeFunction(voidT); // %2
  const main = m.OpFunction(voidT, 'None', fnT); // %3
  m.OpEntryPoint('GLCompute', main, 'main');
  m.OpExecutionMode(main, 'LocalSize', 64, 1, 1);
  m.OpName(main, 'main');
  m.OpLabel(); // %4
  m.OpReturn();
  m.OpFunctionEnd();
  const words = m.assemble();
  assert.deepEqual([...words.slice(0, 5)], [0x07230203, 0x00010300, 0, 5, 0]);
  assertValid(words, 'vulkan1.1');
  assert.equal(dis(words), text(`
    ; SPIR-V
    ; Version: 1.3
    ; Generator: Khronos; 0
    ; Bound: 5
    ; Schema: 0
    OpCapability Shader
    OpMemoryModel Logical GLSL450
    OpEntryPoint GLCompute %3 "main"
    OpExecutionMode %3 LocalSize 64 1 1
    OpName %3 "main"
    %1 = OpTypeVoid
    %2 = OpTypeFunction %1
    %3 = OpFunction %1 None %2
    %4 = OpLabel
    OpReturn
    OpFunctionEnd`));
});

test('types, constants, capabilities, extensions and imports are deduplicated; structs are not', () => {
  const m = new Module();
  m.OpCapability('Shader');
  m.OpCapability('Int64');
  m.OpCapability('Shader');
  m.OpExtension('SPV_KHR_storage_buffer_storage_class');
  m.OpExtension('SPV_KHR_storage_buffer_storage_class');
  const g1 = m.OpExtInstImport('GLSL.std.450');
  const g2 = m.OpExtInstImport('GLSL.std.450');
  assert.equal(g1, g2);
  m.OpMemoryModel('Logical', 'GLSL450');
  const u32 = m.OpTypeInt(32, 0);
  assert.equal(m.OpTypeInt(32, 0), u32);
  const i32 = m.OpTypeInt(32, 1);
  assert.notEqual(i32, u32);
  const v4 = m.OpTypeVector(u32, 4);
  assert.equal(m.OpTypeVector(u32, 4), v4);
  const c7 = m.constant(u32, 7);
  assert.equal(m.constant(u32, 7), c7);
  assert.equal(m.constantBits(u32, 7), c7);
  assert.notEqual(m.constant(i32, 7), c7);
  const s1 = m.OpTypeStruct(u32);
  const s2 = m.OpTypeStruct(u32);
  assert.notEqual(s1, s2);
  m.OpDecorate(s1, 'Block');
  m.OpDecorate(s1, 'Block');
  m.OpMemberDecorate(s1, 0, 'Offset', 0);
  assert.equal(dis(m.assemble()), text(`
    ; SPIR-V
    ; Version: 1.5
    ; Generator: Khronos; 0
    ; Bound: 9
    ; Schema: 0
    OpCapability Shader
    OpCapability Int64
    OpExtension "SPV_KHR_storage_buffer_storage_class"
    %1 = OpExtInstImport "GLSL.std.450"
    OpMemoryModel Logical GLSL450
    OpDecorate %7 Block
    OpMemberDecorate %7 0 Offset 0
    %2 = OpTypeInt 32 0
    %3 = OpTypeInt 32 1
    %4 = OpTypeVector %2 4
    %5 = OpConstant %2 7
    %6 = OpConstant %3 7
    %7 = OpTypeStruct %2
    %8 = OpTypeStruct %2`));
});

test('float constants: -0 and +0 are two constants, each made once (a Map key takes them as one)', () => {
  const m = new Module();
  m.OpCapability('Shader');
  m.OpMemoryModel('Logical', 'GLSL450');
  const f32 = m.OpTypeFloat(32);
  for (const first of [0, -0]) {
    const mm = Object.is(first, 0) ? m : new Module();
    if (mm !== m) { mm.OpCapability('Shader'); mm.OpMemoryModel('Logical', 'GLSL450'); }
    const t = mm === m ? f32 : mm.OpTypeFloat(32);
    const a = mm.constant(t, first), b = mm.constant(t, -first);
    assert.notEqual(a, b);
    assert.equal(mm.constant(t, first), a);
    assert.equal(mm.constant(t, -first), b);
    assert.equal(mm.constantBits(t, Object.is(first, -0) ? 0x80000000 : 0), a);
    // spirv-dis (the oracle) reads the words: the first constant is the first value's sign.
    const lines = dis(mm.assemble()).split('\n').filter((l) => l.includes('OpConstant'));
    assert.deepEqual(lines.map((l) => l.trim().split(' ').pop()), Object.is(first, -0) ? ['-0', '0'] : ['0', '-0']);
  }
});

test('fork: a module that goes on from a template gives the words of one built straight through; the template takes nothing more', () => {
  // The common start: capability, memory model, types, a constant, a decoration, an open function, an id allocated ahead.
  const start = (m: Module) => {
    m.OpCapability('Shader');
    m.OpMemoryModel('Logical', 'GLSL450');
    const voidT = m.OpTypeVoid(), u32 = m.OpTypeInt(32, 0), one = m.constant(u32, 1);
    const later = m.allocateId();
    const main = m.OpFunction(voidT, 'None', m.OpTypeFunction(voidT));
    m.OpEntryPoint('GLCompute', main, 'main');
    m.OpExecutionMode(main, 'LocalSize', 32, 1, 1);
    m.OpLabel();
    const x = m.OpIAdd(u32, one, one);
    m.OpDecorate(x, 'NoContraction');
    return { voidT, u32, one, later, x };
  };
  // What each kernel adds: the same types, constants and decorations again (deduplicated against the start), new ones, the allocated id defined.
  const rest = (m: Module, s: ReturnType<typeof start>, k: number) => {
    assert.equal(m.OpTypeInt(32, 0), s.u32);
    assert.equal(m.constant(s.u32, 1), s.one);
    assert.equal(m.typeOf(s.x), s.u32);
    m.OpDecorate(s.x, 'NoContraction');
    const y = m.OpIMul(s.u32, s.x, m.constant(s.u32, k));
    m.emit('OpIAdd', [s.u32, y, m.OpTypeInt(32, 0) === s.u32 ? s.one : y], s.later);
    m.OpReturn();
    m.OpFunctionEnd();
    return m.assemble();
  };
  const template = new Module();
  const s = start(template);
  const a = template.fork(), b = template.fork();
  const wordsA = rest(a, s, 5), wordsB = rest(b, s, 1);
  for (const [words, k] of [[wordsA, 5], [wordsB, 1]] as const) {
    const straight = new Module();
    assert.deepEqual([...words], [...rest(straight, start(straight), k)]);
    assertValid(words);
  }
  // A fork of a fork: the template's words of each section, then the middle fork's, then its own.
  const mid = template.fork();
  const more = (m: Module, u32: Id) => { m.OpCapability('Int64'); m.constant(u32, 2); };
  more(mid, s.u32);
  const wordsC = rest(mid.fork(), s, 3);
  const straight = new Module();
  const s2 = start(straight);
  more(straight, s2.u32);
  assert.deepEqual([...wordsC], [...rest(straight, s2, 3)]);
  assertValid(wordsC);
  // The template takes no more instructions or ids; a fork's own ids are not another fork's.
  assert.throws(() => template.OpTypeBool(), /^BuilderError: OpTypeBool: the module was forked/);
  assert.throws(() => template.allocateId(), /^BuilderError: allocateId: the module was forked/);
  const c = template.fork();
  assert.throws(() => c.OpIAdd(s.u32, a.constant(s.u32, 9), s.one), /belongs to another module/);
});

test('release: a module done with gives its arrays to the next modules; the words it assembled stay, and it takes nothing more', () => {
  // A template without a memory model (its forks place it), and a body long enough for several chunks.
  const start = (m: Module) => {
    m.OpCapability('Shader');
    const voidT = m.OpTypeVoid(), u32 = m.OpTypeInt(32, 0);
    const main = m.OpFunction(voidT, 'None', m.OpTypeFunction(voidT));
    m.OpEntryPoint('GLCompute', main, 'main');
    m.OpExecutionMode(main, 'LocalSize', 32, 1, 1);
    m.OpLabel();
    return { u32 };
  };
  const rest = (m: Module, s: ReturnType<typeof start>, k: number) => {
    m.OpMemoryModel('Logical', 'GLSL450');
    let x = m.constant(s.u32, k);
    for (let j = 0; j < 100 * k; j++) x = m.OpIAdd(s.u32, x, m.constant(s.u32, j));
    assert.equal(m.typeOf(x), s.u32);
    m.OpReturn();
    m.OpFunctionEnd();
    return m.assemble();
  };
  const straight = (k: number) => { const m = new Module(); return [...rest(m, start(m), k)]; };
  const template = new Module();
  const s = start(template);
  const a = template.fork();
  const wordsA = rest(a, s, 7);
  a.release();
  // The next forks take a's arrays: their words are as built straight through, and a's stay.
  for (const k of [3, 9]) {
    const b = template.fork();
    const words = rest(b, s, k);
    b.release();
    assert.deepEqual([...words], straight(k));
    assertValid(words);
  }
  assert.deepEqual([...wordsA], straight(7));
  assert.throws(() => a.assemble(), /^BuilderError: assemble: the module was released/);
  assert.throws(() => a.OpTypeBool(), /^BuilderError: OpTypeBool: the module was released/);
  assert.throws(() => a.fork(), /^BuilderError: fork: the module was released/);
  assert.throws(() => a.release(), /^BuilderError: release: the module was released already/);
  // A template's words are its forks': it cannot give them back.
  assert.throws(() => template.release(), /^BuilderError: release: the module was forked/);
});

test('constants: f16/f64/i64/i16 words exact from bits (64-bit literals low word first, narrow signed sign-extended)', () => {
  const m = new Module();
  for (const c of ['Shader', 'Float16', 'Float64', 'Int64', 'Int16'] as const) m.OpCapability(c);
  m.OpMemoryModel('Logical', 'GLSL450');
  const f16 = m.OpTypeFloat(16); // %1
  const f64 = m.OpTypeFloat(64); // %2
  const i64 = m.OpTypeInt(64, 1); // %3
  const i16 = m.OpTypeInt(16, 1); // %4
  const u16 = m.OpTypeInt(16, 0); // %5
  const f32 = m.OpTypeFloat(32); // %6
  m.constantBits(f16, 0x7e01); // %7: a NaN with payload, kept
  m.constantBits(f64, 0x7ff0000000000001n); // %8: signalling NaN, exact
  m.constant(f64, 0.1); // %9: 0x3FB999999999999A
  m.constant(i64, -2n); // %10
  m.constant(i64, 0x123456789abcdefn); // %11
  m.constant(i16, -2); // %12
  m.constantBits(u16, 0xfffe); // %13
  m.constant(f32, -0); // %14: the sign of zero survives
  m.constantBits(i16, 0x8000); // %15: the pattern of -32768
  const voidT = m.OpTypeVoid();
  const main = m.OpFunction(voidT, 'None', m.OpTypeFunction(voidT));
  m.OpEntryPoint('GLCompute', main, 'main');
  m.OpExecutionMode(main, 'LocalSize', 1, 1, 1);
  m.OpLabel();
  m.OpReturn();
  m.OpFunctionEnd();
  const words = [...m.assemble()];
  const op = (n: number): number => ((n + 3) << 16) | 43; // OpConstant, n literal words
  const first = words.indexOf(op(1));
  const tail = words.slice(first, first + 40);
  assert.deepEqual(tail, [
    op(1), 1, 7, 0x7e01,
    op(2), 2, 8, 0x00000001, 0x7ff00000,
    op(2), 2, 9, 0x9999999a, 0x3fb99999,
    op(2), 3, 10, 0xfffffffe, 0xffffffff,
    op(2), 3, 11, 0x89abcdef, 0x01234567,
    op(1), 4, 12, 0xfffffffe,
    op(1), 5, 13, 0x0000fffe,
    op(1), 6, 14, 0x80000000,
    op(1), 4, 15, 0xffff8000,
  ]);
  assertValid(m.assemble());
});

test('a compute kernel: storage buffer (Block, runtime array), push constants, PhysicalStorageBuffer64 pointers, NoContraction, GLSL.std.450 Fma, float controls', () => {
  const m = new Module({ version: '1.5' });
  m.OpCapability('Shader');
  m.OpCapability('Int64');
  m.OpCapability('PhysicalStorageBufferAddresses');
  for (const mode of ['DenormPreserve', 'SignedZeroInfNanPreserve', 'RoundingModeRTE'] as const) m.enable('ExecutionMode', mode);
  m.OpMemoryModel('PhysicalStorageBuffer64', 'GLSL450');
  const voidT = m.OpTypeVoid();
  const f32 = m.OpTypeFloat(32);
  const u32 = m.OpTypeInt(32, 0);
  const u64 = m.OpTypeInt(64, 0);
  const v3u = m.OpTypeVector(u32, 3);
  // set 0 binding 0: struct { float data[]; } (Block, Offset 0, ArrayStride 4)
  const rta = m.OpTypeRuntimeArray(f32);
  m.OpDecorate(rta, 'ArrayStride', 4);
  const block = m.OpTypeStruct(rta);
  m.OpDecorate(block, 'Block');
  m.OpMemberDecorate(block, 0, 'Offset', 0);
  const sbPtr = m.OpTypePointer('StorageBuffer', block);
  const buf = m.OpVariable(sbPtr, 'StorageBuffer');
  m.OpDecorate(buf, 'DescriptorSet', 0);
  m.OpDecorate(buf, 'Binding', 0);
  m.OpDecorate(buf, 'Restrict');
  // The same block through a buffer device address.
  const psbPtr = m.OpTypePointer('PhysicalStorageBuffer', block);
  // push constants: struct { uint64_t address; float scale; }
  const pc = m.OpTypeStruct(u64, f32);
  m.OpDecorate(pc, 'Block');
  m.OpMemberDecorate(pc, 0, 'Offset', 0);
  m.OpMemberDecorate(pc, 1, 'Offset', 8);
  m.OpMemberName(pc, 0, 'address');
  const pcVar = m.OpVariable(m.OpTypePointer('PushConstant', pc), 'PushConstant');
  const gid = m.OpVariable(m.OpTypePointer('Input', v3u), 'Input');
  m.OpDecorate(gid, 'BuiltIn', 'GlobalInvocationId');
  const fnT = m.OpTypeFunction(voidT);
  const main = m.OpFunction(voidT, 'None', fnT);
  m.OpEntryPoint('GLCompute', main, 'main', buf, pcVar, gid);
  m.OpExecutionMode(main, 'LocalSize', 64, 1, 1);
  m.OpExecutionMode(main, 'DenormPreserve', 32);
  m.OpExecutionMode(main, 'SignedZeroInfNanPreserve', 32);
  m.OpExecutionMode(main, 'RoundingModeRTE', 32);
  m.OpName(main, 'main');
  m.OpLabel();
  const c0 = m.constant(u32, 0);
  const c1 = m.constant(u32, 1);
  const i = m.OpCompositeExtract(u32, m.OpLoad(v3u, gid), 0);
  const p = m.OpAccessChain(m.OpTypePointer('StorageBuffer', f32), buf, c0, i);
  const x = m.OpLoad(f32, p);
  const scale = m.OpLoad(f32, m.OpAccessChain(m.OpTypePointer('PushConstant', f32), pcVar, c1));
  const addr = m.OpLoad(u64, m.OpAccessChain(m.OpTypePointer('PushConstant', u64), pcVar, c0));
  const other = m.OpConvertUToPtr(psbPtr, addr);
  const q = m.OpAccessChain(m.OpTypePointer('PhysicalStorageBuffer', f32), other, c0, i);
  const y = m.OpLoad(f32, q, 'Aligned', 4);
  const sum = m.OpFAdd(f32, x, y);
  m.OpDecorate(sum, 'NoContraction');
  const prod = m.OpFMul(f32, sum, scale);
  m.OpDecorate(prod, 'NoContraction');
  const fma = m.glsl450('Fma', f32, prod, scale, m.constant(f32, 0.5));
  m.OpStore(p, fma);
  m.OpStore(q, fma, ['Aligned', 'Nontemporal'], 4);
  m.OpReturn();
  m.OpFunctionEnd();
  const words = m.assemble();
  assertValid(words);
  const lines = dis(words).split('\n');
  for (const expected of [
    'OpCapability DenormPreserve', 'OpCapability SignedZeroInfNanPreserve', 'OpCapability RoundingModeRTE',
    'OpMemoryModel PhysicalStorageBuffer64 GLSL450',
    `OpExecutionMode ${main} DenormPreserve 32`, `OpExecutionMode ${main} RoundingModeRTE 32`,
    `OpDecorate ${sum} NoContraction`, `OpDecorate ${prod} NoContraction`, `OpDecorate ${rta} ArrayStride 4`,
    `OpDecorate ${gid} BuiltIn GlobalInvocationId`, `OpMemberName ${pc} 0 "address"`,
    `${psbPtr} = OpTypePointer PhysicalStorageBuffer ${block}`,
    `${y} = OpLoad ${f32} ${q} Aligned 4`, `OpStore ${q} ${fma} Aligned|Nontemporal 4`,
  ]) assert.ok(lines.includes(expected), `missing line ${expected}\n${lines.join('\n')}`);
  // No extension is needed at SPIR-V 1.5 (float controls are core since 1.4).
  assert.ok(!lines.some((l) => l.startsWith('OpExtension')));
  const fmaLine = lines.find((l) => l.startsWith(`${fma} =`));
  assert.match(fmaLine ?? '', /^%\d+ = OpExtInst %\d+ %\d+ Fma %\d+ %\d+ %\d+$/);
});

test('float controls below SPIR-V 1.4 need SPV_KHR_float_controls, which enable() adds once', () => {
  const m = new Module({ version: '1.3' });
  m.OpCapability('Shader');
  m.OpCapability('Float16');
  m.OpCapability('Float64');
  m.enable('ExecutionMode', 'RoundingModeRTZ');
  m.enable('ExecutionMode', 'DenormFlushToZero');
  m.OpMemoryModel('Logical', 'GLSL450');
  const voidT = m.OpTypeVoid(); // %1
  const main = m.OpFunction(voidT, 'None', m.OpTypeFunction(voidT)); // %2 type, %3 function
  m.OpEntryPoint('GLCompute', main, 'main');
  m.OpExecutionMode(main, 'LocalSize', 1, 1, 1);
  m.OpExecutionMode(main, 'RoundingModeRTZ', 16);
  m.OpExecutionMode(main, 'DenormFlushToZero', 64);
  m.OpLabel(); // %4
  m.OpReturn();
  m.OpFunctionEnd();
  const words = m.assemble();
  assertValid(words, 'vulkan1.1');
  assertValid(words, 'vulkan1.2');
  assert.equal(dis(words), text(`
    ; SPIR-V
    ; Version: 1.3
    ; Generator: Khronos; 0
    ; Bound: 5
    ; Schema: 0
    OpCapability Shader
    OpCapability Float16
    OpCapability Float64
    OpCapability RoundingModeRTZ
    OpCapability DenormFlushToZero
    OpExtension "SPV_KHR_float_controls"
    OpMemoryModel Logical GLSL450
    OpEntryPoint GLCompute %3 "main"
    OpExecutionMode %3 LocalSize 1 1 1
    OpExecutionMode %3 RoundingModeRTZ 16
    OpExecutionMode %3 DenormFlushToZero 64
    %1 = OpTypeVoid
    %2 = OpTypeFunction %1
    %3 = OpFunction %1 None %2
    %4 = OpLabel
    OpReturn
    OpFunctionEnd`));
  // Without the extension, spirv-val rejects the 1.3 module (the oracle sees the difference).
  const bare = new Module({ version: '1.3' });
  bare.OpCapability('Shader');
  bare.OpCapability('Float16');
  bare.OpCapability('RoundingModeRTZ');
  bare.OpMemoryModel('Logical', 'GLSL450');
  const v = bare.OpTypeVoid();
  const f = bare.OpFunction(v, 'None', bare.OpTypeFunction(v));
  bare.OpEntryPoint('GLCompute', f, 'main');
  bare.OpExecutionMode(f, 'LocalSize', 1, 1, 1);
  bare.OpExecutionMode(f, 'RoundingModeRTZ', 16);
  bare.OpLabel();
  bare.OpReturn();
  bare.OpFunctionEnd();
  assert.notEqual(validate(bare.assemble(), 'vulkan1.1'), '');
});

test('subgroup ballot (GroupNonUniformBallot), f16/f64/i64 arithmetic, a loop with OpPhi and forward labels', () => {
  const m = new Module({ version: '1.3' });
  for (const c of ['Shader', 'GroupNonUniform', 'GroupNonUniformBallot', 'Float16', 'Float64', 'Int64'] as const) m.OpCapability(c);
  m.OpMemoryModel('Logical', 'GLSL450');
  const voidT = m.OpTypeVoid();
  const bool = m.OpTypeBool();
  const u32 = m.OpTypeInt(32, 0);
  const i64 = m.OpTypeInt(64, 1);
  const f16 = m.OpTypeFloat(16);
  const f64 = m.OpTypeFloat(64);
  const v4u = m.OpTypeVector(u32, 4);
  const main = m.OpFunction(voidT, 'None', m.OpTypeFunction(voidT));
  m.OpEntryPoint('GLCompute', main, 'main');
  m.OpExecutionMode(main, 'LocalSize', 32, 1, 1);
  const entry = m.OpLabel();
  const subgroup = m.constant(u32, 3); // Scope Subgroup
  const t = m.constant(bool, true);
  const ballot = m.OpGroupNonUniformBallot(v4u, subgroup, t);
  const count = m.OpGroupNonUniformBallotBitCount(u32, subgroup, 'Reduce', ballot);
  const h = m.OpFMul(f16, m.constantBits(f16, 0x3c00), m.constantBits(f16, 0x4000));
  const d = m.OpFAdd(f64, m.constant(f64, 1), m.constantBits(f64, 0x3ff0000000000001n));
  const fvar = m.OpVariable(m.OpTypePointer('Function', f64), 'Function'); // goes to the entry block's start
  m.OpStore(fvar, d);
  void h;
  const header = m.allocateId();
  const body = m.allocateId();
  const merge = m.allocateId();
  const next = m.allocateId();
  m.OpBranch(header);
  m.label(header);
  const k = m.OpPhi(i64, m.constant(i64, 0n), entry, next, body);
  const more = m.OpSLessThan(bool, k, m.OpSConvert(i64, count));
  m.OpLoopMerge(merge, body, 'None');
  m.OpBranchConditional(more, body, merge);
  m.label(body);
  m.emit('OpIAdd', [i64, k, m.constant(i64, 1n)], next);
  m.OpBranch(header);
  m.label(merge);
  m.OpReturn();
  m.OpFunctionEnd();
  const words = m.assemble();
  assertValid(words, 'vulkan1.1');
  const lines = dis(words).split('\n');
  const at = (s: string): number => lines.findIndex((l) => l.startsWith(s));
  assert.ok(at(`${fvar} = OpVariable`) === at(`${entry} = OpLabel`) + 1, 'the Function variable opens the entry block');
  assert.ok(lines.includes(`${ballot} = OpGroupNonUniformBallot ${v4u} ${subgroup} ${t}`));
  assert.ok(lines.includes(`${count} = OpGroupNonUniformBallotBitCount ${u32} ${subgroup} Reduce ${ballot}`));
  assert.ok(lines.includes(`${next} = OpIAdd ${i64} ${k} ${m.constant(i64, 1n)}`));
});

test('OpSwitch case literals take the selector width (two words for a 64-bit selector)', () => {
  const m = new Module();
  m.OpCapability('Shader');
  m.OpCapability('Int64');
  m.OpMemoryModel('Logical', 'GLSL450');
  const voidT = m.OpTypeVoid(); // %1
  const u64 = m.OpTypeInt(64, 0); // %2
  const fnT = m.OpTypeFunction(voidT); // %3
  const main = m.OpFunction(voidT, 'None', fnT); // %4
  m.OpEntryPoint('GLCompute', main, 'main');
  m.OpExecutionMode(main, 'LocalSize', 1, 1, 1);
  m.OpLabel(); // %5
  const sel = m.constant(u64, 0x100000002n); // %6
  const [merge, one] = [m.allocateId(), m.allocateId()]; // %7, %8
  m.OpSelectionMerge(merge, 'None');
  m.OpSwitch(sel, merge, 0x100000002n, one);
  m.label(one);
  m.OpBranch(merge);
  m.label(merge);
  m.OpReturn();
  m.OpFunctionEnd();
  const words = m.assemble();
  assertValid(words);
  const at = [...words].indexOf((6 << 16) | 251);
  assert.deepEqual([...words.slice(at, at + 6)], [(6 << 16) | 251, 6, 7, 2, 1, 8]);
  assert.ok(dis(words).split('\n').includes('OpSwitch %6 %7 4294967298 %8'));
});

test('wrong operand counts and kinds, unknown enumerants and misuse raise BuilderError naming the op', () => {
  const m = new Module();
  m.OpCapability('Shader');
  const u32 = m.OpTypeInt(32, 0);
  const f64 = m.OpTypeFloat(64);
  const a = m.constant(u32, 1);
  const err = (fn: () => unknown, re: RegExp): void => {
    assert.throws(fn, (e: unknown) => e instanceof BuilderError && re.test(e.message), `expected BuilderError ${re}`);
  };
  // @ts-expect-error one operand short
  err(() => m.OpIAdd(u32, a), /^OpIAdd: expected 3 operands \(IdResultType IdRef IdRef\), got 2$/);
  // @ts-expect-error one operand too many
  err(() => m.OpIAdd(u32, a, a, a), /^OpIAdd: expected 3 operands/);
  // @ts-expect-error a literal where an id goes
  err(() => m.OpIAdd(u32, 5, a), /^OpIAdd: operand 2 \(IdRef\) must be an id, got number 5$/);
  // @ts-expect-error not a capability
  err(() => m.OpCapability('Bogus'), /^OpCapability: operand 1: unknown Capability "Bogus"$/);
  err(() => m.OpDecorate(a, 'Binding'), /^OpDecorate: operand 3 \(LiteralInteger\) is missing/);
  err(() => m.OpDecorate(a, 'Binding', 0, 1), /^OpDecorate: too many operands/);
  err(() => m.OpExecutionMode(a, 'LocalSize', 1, 1), /^OpExecutionMode: operand 5 \(LiteralInteger\) is missing/);
  err(() => m.OpTypeInt(-1, 0), /^OpTypeInt: operand 1 \(LiteralInteger\) must be an integer in 0\.\.0xffffffff/);
  err(() => m.OpConstant(f64, 1), /^OpConstant: a 64-bit literal must be a bigint/);
  err(() => m.OpConstant(u32, 0x1_0000_0000), /^OpConstant: literal 4294967296 does not fit a 32-bit integer$/);
  err(() => m.constant(m.OpTypeFloat(16), 1), /^constant: an f16 constant needs its bit pattern/);
  err(() => m.constant(f64, Number.NaN), /^constant: a NaN constant needs its bit pattern/);
  err(() => m.OpReturn(), /^OpReturn: outside a function$/);
  err(() => m.emit('OpNotAnOp', []), /^OpNotAnOp: not an instruction of the grammar table$/);
  // @ts-expect-error not a GLSL.std.450 instruction
  err(() => m.glsl450('Frobnicate', u32, a), /^GLSL.std.450 Frobnicate: not an instruction/);
  err(() => m.glsl450('Fma', u32, a, a), /^GLSL.std.450 Fma: expected 3 operands \(IdRef IdRef IdRef\), got 2$/);
  const other = new Module();
  err(() => m.OpIAdd(u32, a, other.OpTypeInt(32, 0)), /^OpIAdd: operand 3 \(IdRef\): %1 belongs to another module$/);
  err(() => m.assemble(), /^assemble: the module has no OpMemoryModel$/);
  m.OpMemoryModel('Logical', 'GLSL450');
  err(() => m.OpMemoryModel('Logical', 'GLSL450'), /^OpMemoryModel: the module already has a memory model$/);
  const dangling = m.allocateId();
  err(() => m.assemble(), new RegExp(`^assemble: allocated ids never defined: ${dangling}$`));
  err(() => m.enable('ExecutionMode', 'OutputVertices'), /^enable ExecutionMode OutputVertices: needs one of the capabilities Geometry, Tessellation/);
});

// Inside a function most instructions skip the general encoder (Module.emitPlain): ids, then more
// ids, literal integers or one enumerant with literal parameters. The words are the spec's, and
// what the general encoder refuses is refused there too (the direct path hands it over).
test('inside a function, the direct path writes the spec\'s words and refuses what the general encoder refuses', () => {
  const m = new Module();
  m.OpCapability('Shader');
  m.OpMemoryModel('Logical', 'GLSL450');
  const u32 = m.OpTypeInt(32, 0), bool = m.OpTypeBool();
  const v2 = m.OpTypeVector(u32, 2);
  const ptr = m.OpTypePointer('Function', u32);
  const one = m.constant(u32, 1), t = m.constant(bool, true);
  const fn = m.OpFunction(m.OpTypeVoid(), 'None', m.OpTypeFunction(m.OpTypeVoid()));
  const entry = m.OpLabel();
  const v = m.OpVariable(ptr, 'Function');
  const err = (f: () => unknown, re: RegExp): void => {
    assert.throws(f, (e: unknown) => e instanceof BuilderError && re.test(e.message), `expected BuilderError ${re}`);
  };
  const words = (x: Id): number[] => [x.value];
  const x = m.OpLoad(u32, v, 'Aligned', 4);
  const pair = m.OpCompositeConstruct(v2, x, one);
  const lo = m.OpCompositeExtract(u32, pair, 1);
  const hdr = m.allocateId(), body = m.allocateId(), cont = m.allocateId(), done = m.allocateId();
  m.OpBranch(hdr);
  m.label(hdr);
  const phi = m.OpPhi(u32, lo, entry, lo, cont);
  m.OpLoopMerge(done, cont, 'DontUnroll');
  m.OpBranchConditional(t, body, done, 3, 1);
  m.label(body);
  m.OpBranch(cont);
  m.label(cont);
  m.OpBranch(hdr);
  m.label(done);
  // A phi's operands are pairs (the types do not say so).
  err(() => m.OpPhi(u32, lo, entry, lo), /^OpPhi: /);
  err(() => m.OpCompositeExtract(u32, pair, -1), /^OpCompositeExtract: operand 3 \(LiteralInteger\) must be an integer/);
  // @ts-expect-error not a loop control
  err(() => m.OpLoopMerge(done, cont, 'Bogus'), /^OpLoopMerge: operand 3: unknown LoopControl "Bogus"$/);
  err(() => m.OpLoad(u32, v, 'Aligned'), /^OpLoad: operand 4 \(LiteralInteger\) is missing/);
  // @ts-expect-error a literal where an id goes
  err(() => m.OpFunctionCall(u32, fn, 7), /^OpFunctionCall: operand 3 \(IdRef\) must be an id, got number 7$/);
  m.OpStore(v, phi, 'Aligned', 4);
  m.OpReturn();
  m.OpFunctionEnd();
  const w = m.assemble();
  const find = (opcode: number): number[] => {
    for (let at = 5; at < w.length; at += (w[at] as number) >>> 16) if (((w[at] as number) & 0xffff) === opcode) return Array.from(w.subarray(at, at + ((w[at] as number) >>> 16)));
    return [];
  };
  assert.deepEqual(find(61), [(6 << 16) | 61, ...words(u32), ...words(x), ...words(v), 2, 4]);
  assert.deepEqual(find(81), [(5 << 16) | 81, ...words(u32), ...words(lo), ...words(pair), 1]);
  assert.deepEqual(find(245), [(7 << 16) | 245, ...words(u32), ...words(phi), ...words(lo), ...words(entry), ...words(lo), ...words(cont)]);
  assert.deepEqual(find(246), [(4 << 16) | 246, ...words(done), ...words(cont), 2]);
  assert.deepEqual(find(250), [(6 << 16) | 250, ...words(t), ...words(body), ...words(done), 3, 1]);
  assert.deepEqual(find(62), [(5 << 16) | 62, ...words(v), ...words(phi), 2, 4]);
  write(w);
});

test('the value ops\' own writer (a result type, the result, one to three ids) writes what emit writes and refuses what it refuses', () => {
  // The same function twice: by the op methods (their writer) and by emit (the general method).
  const build = (direct: boolean): { m: Module; words: Uint32Array } => {
    const m = new Module();
    m.OpCapability('Shader');
    m.OpMemoryModel('Logical', 'GLSL450');
    const u32 = m.OpTypeInt(32, 0), bool = m.OpTypeBool(), f32 = m.OpTypeFloat(32);
    const a = m.constant(u32, 7), b = m.constant(u32, 9);
    m.OpFunction(m.OpTypeVoid(), 'None', m.OpTypeFunction(m.OpTypeVoid()));
    m.OpLabel();
    const op = (name: 'OpIAdd' | 'OpNot' | 'OpSelect' | 'OpULessThan' | 'OpBitcast', ...xs: Id[]): Id =>
      (direct ? (m[name] as unknown as (...ys: Id[]) => Id)(...xs) : m.emit(name, xs) as Id);
    const s = op('OpIAdd', u32, a, b);
    const n = op('OpNot', u32, s);
    const c = op('OpULessThan', bool, n, a);
    const r = op('OpSelect', u32, c, s, n);
    const f = op('OpBitcast', f32, r);
    assert.equal(m.typeOf(f), f32);
    m.OpReturn();
    m.OpFunctionEnd();
    return { m, words: m.assemble() };
  };
  assert.deepEqual(Array.from(build(true).words), Array.from(build(false).words));
  const m = new Module();
  const other = new Module();
  const u32 = m.OpTypeInt(32, 0), x = m.constant(u32, 1), y = other.constant(other.OpTypeInt(32, 0), 1);
  const err = (f: () => unknown, re: RegExp): void => {
    assert.throws(f, (e: unknown) => e instanceof BuilderError && re.test(e.message), `expected BuilderError ${re}`);
  };
  err(() => m.OpIAdd(u32, x, x), /^OpIAdd: outside a function$/);
  m.OpFunction(m.OpTypeVoid(), 'None', m.OpTypeFunction(m.OpTypeVoid()));
  err(() => m.OpIAdd(u32, x, x), /^OpIAdd: before the first OpLabel/);
  m.OpLabel();
  // @ts-expect-error an operand missing
  err(() => m.OpIAdd(u32, x), /^OpIAdd: expected 3 operands \(IdResultType IdRef IdRef\), got 2$/);
  // @ts-expect-error one operand too many
  err(() => m.OpIAdd(u32, x, x, x), /^OpIAdd: expected 3 operands \(IdResultType IdRef IdRef\), got 4$/);
  // @ts-expect-error a literal where an id goes
  err(() => m.OpIAdd(u32, x, 7), /^OpIAdd: operand 3 \(IdRef\) must be an id, got number 7$/);
  err(() => m.OpIAdd(u32, x, y), /^OpIAdd: .*belongs to another module/);
  const t = m.OpIAdd(u32, x, x);
  m.fork();
  err(() => m.OpIAdd(u32, t, x), /^OpIAdd: the module was forked/);
});

// Random straight-line code: values of random scalar and vector types, built from constants and
// earlier results by integer and float ops (some with NoContraction, some via GLSL.std.450).
test('property: random straight-line integer/float code over random types is valid SPIR-V', () => {
  type Scalar = { kind: 'int'; width: 32 | 64; signed: boolean } | { kind: 'float'; width: 16 | 32 | 64 };
  const scalar: fc.Arbitrary<Scalar> = fc.oneof(
    fc.record({ kind: fc.constant('int' as const), width: fc.constantFrom(32 as const, 64 as const), signed: fc.boolean() }),
    fc.record({ kind: fc.constant('float' as const), width: fc.constantFrom(16 as const, 32 as const, 64 as const) }),
  );
  const valueType = fc.record({ scalar, lanes: fc.constantFrom(1, 2, 3, 4) });
  const step = fc.record({ type: fc.nat(3), op: fc.nat(11), a: fc.nat(), b: fc.nat(), c: fc.nat(), noContraction: fc.boolean(), bits: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }) });
  const program = fc.record({ types: fc.array(valueType, { minLength: 4, maxLength: 4 }), steps: fc.array(step, { minLength: 1, maxLength: 25 }) });
  fc.assert(fc.property(program, ({ types, steps }) => {
    const m = new Module({ version: '1.5' });
    for (const c of ['Shader', 'Float16', 'Float64', 'Int64'] as const) m.OpCapability(c);
    m.OpMemoryModel('Logical', 'GLSL450');
    const voidT = m.OpTypeVoid();
    const main = m.OpFunction(voidT, 'None', m.OpTypeFunction(voidT));
    m.OpEntryPoint('GLCompute', main, 'main');
    m.OpExecutionMode(main, 'LocalSize', 1, 1, 1);
    m.OpLabel();
    const typeIds = types.map(({ scalar: s, lanes }) => {
      const st = s.kind === 'int' ? m.OpTypeInt(s.width, s.signed ? 1 : 0) : m.OpTypeFloat(s.width);
      return { s, st, t: lanes === 1 ? st : m.OpTypeVector(st, lanes), lanes };
    });
    const pools = typeIds.map(() => [] as Id[]);
    for (const st of steps) {
      const ti = typeIds[st.type % typeIds.length];
      const pool = pools[st.type % pools.length];
      if (!ti || !pool) continue;
      const { s, t, lanes } = ti;
      if (pool.length === 0 || st.op === 0) {
        const bits = st.bits & ((1n << BigInt(s.width)) - 1n);
        const k = m.constantBits(ti.st, s.width === 64 ? bits : Number(bits));
        pool.push(lanes === 1 ? k : m.OpConstantComposite(t, ...Array<Id>(lanes).fill(k)));
        continue;
      }
      const pick = (n: number): Id => pool[n % pool.length] as Id;
      const [a, b, c] = [pick(st.a), pick(st.b), pick(st.c)];
      let r: Id;
      if (s.kind === 'int') {
        const ops = [
          () => m.OpIAdd(t, a, b), () => m.OpISub(t, a, b), () => m.OpIMul(t, a, b), () => m.OpBitwiseAnd(t, a, b),
          () => m.OpBitwiseOr(t, a, b), () => m.OpBitwiseXor(t, a, b), () => m.OpShiftLeftLogical(t, a, b),
          () => m.OpShiftRightArithmetic(t, a, b), () => m.OpNot(t, a), () => m.OpSNegate(t, a),
          () => (s.signed ? m.OpSDiv(t, a, b) : m.OpUDiv(t, a, b)),
        ];
        r = (ops[st.op % ops.length] as () => Id)();
      } else {
        const ops = [
          () => m.OpFAdd(t, a, b), () => m.OpFSub(t, a, b), () => m.OpFMul(t, a, b), () => m.OpFDiv(t, a, b),
          () => m.OpFNegate(t, a), () => m.OpFRem(t, a, b), () => m.glsl450('Fma', t, a, b, c),
          () => m.glsl450('FAbs', t, a), () => m.glsl450('FMin', t, a, b), () => m.glsl450('Sqrt', t, a),
          () => m.OpFMod(t, a, b),
        ];
        r = (ops[st.op % ops.length] as () => Id)();
        if (st.noContraction) m.OpDecorate(r, 'NoContraction');
      }
      pool.push(r);
    }
    m.OpReturn();
    m.OpFunctionEnd();
    const words = m.assemble();
    const verdict = validate(words);
    if (verdict !== '') throw new Error(`${verdict}\n${dis(words)}`);
  }), { numRuns: 40 });
});
