// The Vulkan runtime (native/rdna_vulkan.c + src/runtime) on a real driver: lavapipe by default,
// another ICD with RDNA_TEST_VK_DRIVER_FILES. Oracles: `vulkaninfo --json` of the same driver for
// the profile, JS arithmetic for the shader results, spirv-as/spirv-val (spirv-tools) for the modules.
// Needs the addon built (npm run build:native) and the Debian packages scripts/test.sh installs:
// nothing here is skipped, a missing piece fails the test. The device runs with the Khronos
// validation layer (vulkan-validationlayers): any validation error fails the run that caused it,
// and the last test checks that the only messages of the whole file are the ones provoked on purpose.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VulkanDevice, VulkanError, VulkanUnavailableError, loadAddon, type RunResult } from '../../src/runtime/vulkan.js';
import { describeProfile, floatControlsFor, subgroupOperations, type DeviceProfile } from '../../src/runtime/device.js';

const ICD_DIR = '/usr/share/vulkan/icd.d';
/** lavapipe's manifest (lvp_icd.<arch>.json from mesa-vulkan-drivers), unless RDNA_TEST_VK_DRIVER_FILES names another. */
const DRIVER_FILES =
  process.env['RDNA_TEST_VK_DRIVER_FILES'] ??
  join(ICD_DIR, (existsSync(ICD_DIR) ? readdirSync(ICD_DIR) : []).find((f) => /^lvp_icd\..*\.json$/.test(f)) ?? 'lvp_icd.x86_64.json');
const dir = mkdtempSync(join(tmpdir(), 'rdna-vk-'));

// ---------------------------------------------------------------- SPIR-V modules (text → spirv-as → spirv-val)

const HEADER_STORAGE = `
OpDecorate %rta ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf Block`;

/** out[i] = a[i] + b[i] for i < arrayLength(out); bindings 0, 1, 2. */
const ADD = `
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid %a %b %o
OpExecutionMode %main LocalSize 64 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
${HEADER_STORAGE}
OpDecorate %a DescriptorSet 0
OpDecorate %a Binding 0
OpDecorate %b DescriptorSet 0
OpDecorate %b Binding 1
OpDecorate %o DescriptorSet 0
OpDecorate %o Binding 2
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%c0 = OpConstant %uint 0
%v3uint = OpTypeVector %uint 3
%pin = OpTypePointer Input %v3uint
%gid = OpVariable %pin Input
%rta = OpTypeRuntimeArray %uint
%Buf = OpTypeStruct %rta
%pBuf = OpTypePointer StorageBuffer %Buf
%pu = OpTypePointer StorageBuffer %uint
%a = OpVariable %pBuf StorageBuffer
%b = OpVariable %pBuf StorageBuffer
%o = OpVariable %pBuf StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
%g = OpLoad %v3uint %gid
%i = OpCompositeExtract %uint %g 0
%n = OpArrayLength %uint %o 0
%ok = OpULessThan %bool %i %n
OpSelectionMerge %end None
OpBranchConditional %ok %body %end
%body = OpLabel
%pa = OpAccessChain %pu %a %c0 %i
%pb = OpAccessChain %pu %b %c0 %i
%po = OpAccessChain %pu %o %c0 %i
%va = OpLoad %uint %pa
%vb = OpLoad %uint %pb
%s = OpIAdd %uint %va %vb
OpStore %po %s
OpBranch %end
%end = OpLabel
OpReturn
OpFunctionEnd
`;

/**
 * Push block {u64 src; u64 dst; u32 n}: dst[i] = src[i] * 3 + 1 through PhysicalStorageBuffer64
 * pointers; invocation 0 also stores both addresses it received into binding 2 (u64[2]).
 */
const PSB = `
OpCapability Shader
OpCapability Int64
OpCapability PhysicalStorageBufferAddresses
OpExtension "SPV_KHR_physical_storage_buffer"
OpMemoryModel PhysicalStorageBuffer64 GLSL450
OpEntryPoint GLCompute %main "main" %gid %pc %rep
OpExecutionMode %main LocalSize 32 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %PC Block
OpMemberDecorate %PC 0 Offset 0
OpMemberDecorate %PC 1 Offset 8
OpMemberDecorate %PC 2 Offset 16
OpDecorate %rta ArrayStride 4
OpMemberDecorate %Arr 0 Offset 0
OpDecorate %Arr Block
OpDecorate %rta64 ArrayStride 8
OpMemberDecorate %Rep 0 Offset 0
OpDecorate %Rep Block
OpDecorate %rep DescriptorSet 0
OpDecorate %rep Binding 2
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%c0 = OpConstant %uint 0
%c1 = OpConstant %uint 1
%c2 = OpConstant %uint 2
%c3 = OpConstant %uint 3
%v3uint = OpTypeVector %uint 3
%pin = OpTypePointer Input %v3uint
%gid = OpVariable %pin Input
%PC = OpTypeStruct %ulong %ulong %uint
%pPC = OpTypePointer PushConstant %PC
%pcu64 = OpTypePointer PushConstant %ulong
%pcu32 = OpTypePointer PushConstant %uint
%pc = OpVariable %pPC PushConstant
%rta = OpTypeRuntimeArray %uint
%Arr = OpTypeStruct %rta
%pArr = OpTypePointer PhysicalStorageBuffer %Arr
%pElem = OpTypePointer PhysicalStorageBuffer %uint
%rta64 = OpTypeRuntimeArray %ulong
%Rep = OpTypeStruct %rta64
%pRep = OpTypePointer StorageBuffer %Rep
%pRepElem = OpTypePointer StorageBuffer %ulong
%rep = OpVariable %pRep StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
%g = OpLoad %v3uint %gid
%i = OpCompositeExtract %uint %g 0
%pn = OpAccessChain %pcu32 %pc %c2
%n = OpLoad %uint %pn
%psrc = OpAccessChain %pcu64 %pc %c0
%pdst = OpAccessChain %pcu64 %pc %c1
%asrc = OpLoad %ulong %psrc
%adst = OpLoad %ulong %pdst
%first = OpIEqual %bool %i %c0
OpSelectionMerge %afterReport None
OpBranchConditional %first %report %afterReport
%report = OpLabel
%r0 = OpAccessChain %pRepElem %rep %c0 %c0
%r1 = OpAccessChain %pRepElem %rep %c0 %c1
OpStore %r0 %asrc
OpStore %r1 %adst
OpBranch %afterReport
%afterReport = OpLabel
%ok = OpULessThan %bool %i %n
OpSelectionMerge %end None
OpBranchConditional %ok %body %end
%body = OpLabel
%src = OpConvertUToPtr %pArr %asrc
%dst = OpConvertUToPtr %pArr %adst
%es = OpAccessChain %pElem %src %c0 %i
%ed = OpAccessChain %pElem %dst %c0 %i
%v = OpLoad %uint %es Aligned 4
%m = OpIMul %uint %v %c3
%r = OpIAdd %uint %m %c1
OpStore %ed %r Aligned 4
OpBranch %end
%end = OpLabel
OpReturn
OpFunctionEnd
`;

/** Per invocation i: out[6i..6i+5] = SubgroupSize, SubgroupLocalInvocationId, ballot(local id odd). LocalSize 64. */
const BALLOT = `
OpCapability Shader
OpCapability GroupNonUniform
OpCapability GroupNonUniformBallot
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid %sgs %sgid %o
OpExecutionMode %main LocalSize 64 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %sgs BuiltIn SubgroupSize
OpDecorate %sgid BuiltIn SubgroupLocalInvocationId
${HEADER_STORAGE}
OpDecorate %o DescriptorSet 0
OpDecorate %o Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%c0 = OpConstant %uint 0
%c1 = OpConstant %uint 1
%c2 = OpConstant %uint 2
%c3 = OpConstant %uint 3
%c4 = OpConstant %uint 4
%c5 = OpConstant %uint 5
%c6 = OpConstant %uint 6
%v3uint = OpTypeVector %uint 3
%v4uint = OpTypeVector %uint 4
%pin = OpTypePointer Input %v3uint
%pinu = OpTypePointer Input %uint
%gid = OpVariable %pin Input
%sgs = OpVariable %pinu Input
%sgid = OpVariable %pinu Input
%rta = OpTypeRuntimeArray %uint
%Buf = OpTypeStruct %rta
%pBuf = OpTypePointer StorageBuffer %Buf
%pu = OpTypePointer StorageBuffer %uint
%o = OpVariable %pBuf StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
%g = OpLoad %v3uint %gid
%i = OpCompositeExtract %uint %g 0
%size = OpLoad %uint %sgs
%lane = OpLoad %uint %sgid
%bit = OpBitwiseAnd %uint %lane %c1
%odd = OpIEqual %bool %bit %c1
%bal = OpGroupNonUniformBallot %v4uint %c3 %odd
%base = OpIMul %uint %i %c6
%o1 = OpIAdd %uint %base %c1
%o2 = OpIAdd %uint %base %c2
%o3 = OpIAdd %uint %base %c3
%o4 = OpIAdd %uint %base %c4
%o5 = OpIAdd %uint %base %c5
%p0 = OpAccessChain %pu %o %c0 %base
%p1 = OpAccessChain %pu %o %c0 %o1
%p2 = OpAccessChain %pu %o %c0 %o2
%p3 = OpAccessChain %pu %o %c0 %o3
%p4 = OpAccessChain %pu %o %c0 %o4
%p5 = OpAccessChain %pu %o %c0 %o5
%b0 = OpCompositeExtract %uint %bal 0
%b1 = OpCompositeExtract %uint %bal 1
%b2 = OpCompositeExtract %uint %bal 2
%b3 = OpCompositeExtract %uint %bal 3
OpStore %p0 %size
OpStore %p1 %lane
OpStore %p2 %b0
OpStore %p3 %b1
OpStore %p4 %b2
OpStore %p5 %b3
OpReturn
OpFunctionEnd
`;

/** f64: out[4i..4i+3] = a*b, a+b, a-b, (a*b)+c (NoContraction: two roundings, as in JS). */
const F64 = `
OpCapability Shader
OpCapability Float64
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid %a %b %c %o
OpExecutionMode %main LocalSize 16 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %rta ArrayStride 8
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf Block
OpDecorate %a DescriptorSet 0
OpDecorate %a Binding 0
OpDecorate %b DescriptorSet 0
OpDecorate %b Binding 1
OpDecorate %c DescriptorSet 0
OpDecorate %c Binding 2
OpDecorate %o DescriptorSet 0
OpDecorate %o Binding 3
OpDecorate %mul NoContraction
OpDecorate %add NoContraction
OpDecorate %sub NoContraction
OpDecorate %m2 NoContraction
OpDecorate %fma NoContraction
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%double = OpTypeFloat 64
%c0 = OpConstant %uint 0
%c1 = OpConstant %uint 1
%c2 = OpConstant %uint 2
%c3 = OpConstant %uint 3
%c4 = OpConstant %uint 4
%v3uint = OpTypeVector %uint 3
%pin = OpTypePointer Input %v3uint
%gid = OpVariable %pin Input
%rta = OpTypeRuntimeArray %double
%Buf = OpTypeStruct %rta
%pBuf = OpTypePointer StorageBuffer %Buf
%pd = OpTypePointer StorageBuffer %double
%a = OpVariable %pBuf StorageBuffer
%b = OpVariable %pBuf StorageBuffer
%c = OpVariable %pBuf StorageBuffer
%o = OpVariable %pBuf StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
%g = OpLoad %v3uint %gid
%i = OpCompositeExtract %uint %g 0
%n = OpArrayLength %uint %a 0
%ok = OpULessThan %bool %i %n
OpSelectionMerge %end None
OpBranchConditional %ok %body %end
%body = OpLabel
%pa = OpAccessChain %pd %a %c0 %i
%pb = OpAccessChain %pd %b %c0 %i
%pc = OpAccessChain %pd %c %c0 %i
%va = OpLoad %double %pa
%vb = OpLoad %double %pb
%vc = OpLoad %double %pc
%mul = OpFMul %double %va %vb
%add = OpFAdd %double %va %vb
%sub = OpFSub %double %va %vb
%m2 = OpFMul %double %va %vb
%fma = OpFAdd %double %m2 %vc
%base = OpIMul %uint %i %c4
%i1 = OpIAdd %uint %base %c1
%i2 = OpIAdd %uint %base %c2
%i3 = OpIAdd %uint %base %c3
%q0 = OpAccessChain %pd %o %c0 %base
%q1 = OpAccessChain %pd %o %c0 %i1
%q2 = OpAccessChain %pd %o %c0 %i2
%q3 = OpAccessChain %pd %o %c0 %i3
OpStore %q0 %mul
OpStore %q1 %add
OpStore %q2 %sub
OpStore %q3 %fma
OpBranch %end
%end = OpLabel
OpReturn
OpFunctionEnd
`;

/** Push block {u32 x[8]} (32 bytes): out[0] = x[7]. LocalSize 1. */
const PUSH8 = `
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %pc %o
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %arr8 ArrayStride 4
OpDecorate %PC Block
OpMemberDecorate %PC 0 Offset 0
${HEADER_STORAGE}
OpDecorate %o DescriptorSet 0
OpDecorate %o Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%c0 = OpConstant %uint 0
%c7 = OpConstant %uint 7
%c8 = OpConstant %uint 8
%arr8 = OpTypeArray %uint %c8
%PC = OpTypeStruct %arr8
%pPC = OpTypePointer PushConstant %PC
%pcu = OpTypePointer PushConstant %uint
%pc = OpVariable %pPC PushConstant
%rta = OpTypeRuntimeArray %uint
%Buf = OpTypeStruct %rta
%pBuf = OpTypePointer StorageBuffer %Buf
%pu = OpTypePointer StorageBuffer %uint
%o = OpVariable %pBuf StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
%p7 = OpAccessChain %pcu %pc %c0 %c7
%v = OpLoad %uint %p7
%po = OpAccessChain %pu %o %c0 %c0
OpStore %po %v
OpReturn
OpFunctionEnd
`;

/** out[0] = arrayLength(buffer 0) (u32 elements), out[1] = arrayLength(out); bindings 0, 1. LocalSize 1. */
const LEN = `
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %a %o
OpExecutionMode %main LocalSize 1 1 1
${HEADER_STORAGE}
OpDecorate %a DescriptorSet 0
OpDecorate %a Binding 0
OpDecorate %o DescriptorSet 0
OpDecorate %o Binding 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%c0 = OpConstant %uint 0
%c1 = OpConstant %uint 1
%rta = OpTypeRuntimeArray %uint
%Buf = OpTypeStruct %rta
%pBuf = OpTypePointer StorageBuffer %Buf
%pu = OpTypePointer StorageBuffer %uint
%a = OpVariable %pBuf StorageBuffer
%o = OpVariable %pBuf StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
%na = OpArrayLength %uint %a 0
%no = OpArrayLength %uint %o 0
%p0 = OpAccessChain %pu %o %c0 %c0
%p1 = OpAccessChain %pu %o %c0 %c1
OpStore %p0 %na
OpStore %p1 %no
OpReturn
OpFunctionEnd
`;

function tool(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.error) throw new Error(`${cmd} could not run (${r.error.message}): scripts/test.sh installs spirv-tools and vulkan-tools`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr}${r.stdout}`);
  return r.stdout;
}

/** Assembles SPIR-V text with spirv-as and validates it with spirv-val for Vulkan 1.2. */
function assemble(name: string, text: string): Uint32Array {
  const src = join(dir, `${name}.spvasm`);
  const bin = join(dir, `${name}.spv`);
  writeFileSync(src, text);
  tool('spirv-as', ['--target-env', 'vulkan1.2', '-o', bin, src]);
  tool('spirv-val', ['--target-env', 'vulkan1.2', bin]);
  const bytes = readFileSync(bin);
  return new Uint32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

/** A small deterministic generator (xorshift32), so failures repeat. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
}

// ---------------------------------------------------------------- setup

let dev: VulkanDevice;
let mods: { add: Uint32Array; add16: Uint32Array; add32: Uint32Array; psb: Uint32Array; ballot: Uint32Array; f64: Uint32Array; push8: Uint32Array; len: Uint32Array };
let info: Record<string, unknown>; // vulkaninfo's capabilities.device
let openMs = 0;

function field(path: string): unknown {
  let v: unknown = info;
  for (const k of path.split('.')) {
    if (typeof v !== 'object' || v === null || !(k in v)) throw new Error(`vulkaninfo JSON lacks ${path}`);
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

/** A field that vulkaninfo prints only where the device has the extension: `absent` where it is missing. */
function offeredOr(path: string, absent: unknown): unknown {
  try { return field(path); } catch { return absent; }
}

before(() => {
  mods = {
    add: assemble('add', ADD),
    // the same kernel with other LocalSizes: other words, so other pipelines (used only by the reuse test)
    add16: assemble('add16', ADD.replace('LocalSize 64 1 1', 'LocalSize 16 1 1')),
    add32: assemble('add32', ADD.replace('LocalSize 64 1 1', 'LocalSize 32 1 1')),
    psb: assemble('psb', PSB),
    ballot: assemble('ballot', BALLOT),
    f64: assemble('f64', F64),
    push8: assemble('push8', PUSH8),
    len: assemble('len', LEN),
  };
  const json = join(dir, 'vulkaninfo.json');
  const r = spawnSync('vulkaninfo', ['--json=0', '-o', json], {
    encoding: 'utf8',
    env: { ...process.env, VK_DRIVER_FILES: DRIVER_FILES },
  });
  if (r.error || r.status !== 0) throw new Error(`vulkaninfo --json failed: ${r.error?.message ?? r.stderr}`);
  const doc = JSON.parse(readFileSync(json, 'utf8')) as { capabilities: { device: Record<string, unknown> } };
  info = doc.capabilities.device;
});

after(() => {
  dev?.close();
});

// ---------------------------------------------------------------- availability errors (before the real device opens)

test('a missing addon is VulkanUnavailableError (addon)', () => {
  assert.throws(
    () => loadAddon(join(dir, 'nothing.node')),
    (e: unknown) => e instanceof VulkanUnavailableError && e.missing === 'addon' && /build:native/.test(e.message),
  );
});

test('a driver manifest that does not exist is VulkanUnavailableError (driver) naming VK_DRIVER_FILES', () => {
  assert.throws(
    () => VulkanDevice.open({ driverFiles: join(dir, 'no-such-icd.json') }),
    (e: unknown) =>
      e instanceof VulkanUnavailableError && e.missing === 'driver' && e.code === 'VK_ERROR_INCOMPATIBLE_DRIVER' &&
      e.message.includes('no-such-icd.json'),
  );
});

test('a device name that matches nothing is VulkanUnavailableError (device)', () => {
  assert.throws(
    () => VulkanDevice.open({ driverFiles: DRIVER_FILES, deviceName: 'no such GPU 1234' }),
    (e: unknown) => e instanceof VulkanUnavailableError && e.missing === 'device' && /no such GPU 1234/.test(e.message),
  );
});

test('validation asked for with no layer on the search path is VulkanUnavailableError (layer)', () => {
  // VK_LAYER_PATH replaces the loader's search for explicit layers; an empty folder holds none
  const saved = process.env['VK_LAYER_PATH'];
  process.env['VK_LAYER_PATH'] = mkdtempSync(join(tmpdir(), 'rdna-no-layers-'));
  try {
    assert.throws(
      () => VulkanDevice.open({ driverFiles: DRIVER_FILES, validation: true }),
      (e: unknown) =>
        e instanceof VulkanUnavailableError && e.missing === 'layer' && e.code === 'ERR_VULKAN_NO_LAYER' &&
        e.message.includes('VK_LAYER_KHRONOS_validation') && e.message.includes('vulkan-validationlayers'),
    );
  } finally {
    if (saved === undefined) delete process.env['VK_LAYER_PATH'];
    else process.env['VK_LAYER_PATH'] = saved;
  }
});

test('open the device with the Khronos validation layer', (t) => {
  const t0 = performance.now();
  dev = VulkanDevice.open({ driverFiles: DRIVER_FILES, validation: true });
  assert.equal(dev.validation, true);
  assert.equal(dev.cacheStats().validation, true);
  assert.deepEqual(dev.validationMessages(), [], 'instance and device creation are clean');
  openMs = performance.now() - t0;
  t.diagnostic(`open ${openMs.toFixed(1)} ms (init ${dev.initMs.toFixed(1)} ms)`);
  for (const line of describeProfile(dev.profile)) t.diagnostic(line);
  assert.throws(() => VulkanDevice.open({ driverFiles: DRIVER_FILES }), (e: unknown) => e instanceof VulkanError && e.code === 'ERR_VULKAN_STATE');
});

// ---------------------------------------------------------------- profile against vulkaninfo

test('profile() agrees with vulkaninfo --json: identity, float controls, subgroups, features, extensions', () => {
  const p: DeviceProfile = dev.profile;
  assert.equal(p.deviceName, field('properties.VkPhysicalDeviceProperties.deviceName'));
  const api = field('properties.VkPhysicalDeviceProperties.apiVersion') as number;
  assert.equal(p.apiVersion, `${api >>> 22}.${(api >>> 12) & 0x3ff}.${api & 0xfff}`);
  assert.equal(p.driverName, field('properties.VkPhysicalDeviceDriverProperties.driverName'));
  assert.equal(p.driverInfo, field('properties.VkPhysicalDeviceDriverProperties.driverInfo'));

  const fc = 'properties.VkPhysicalDeviceFloatControlsProperties';
  assert.equal(`VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_${p.floatControls.denormBehaviorIndependence}`, field(`${fc}.denormBehaviorIndependence`));
  assert.equal(`VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_${p.floatControls.roundingModeIndependence}`, field(`${fc}.roundingModeIndependence`));
  for (const w of [16, 32, 64] as const) {
    const c = floatControlsFor(p, w);
    assert.equal(c.signedZeroInfNanPreserve, field(`${fc}.shaderSignedZeroInfNanPreserveFloat${w}`), `SignedZeroInfNanPreserve${w}`);
    assert.equal(c.denormPreserve, field(`${fc}.shaderDenormPreserveFloat${w}`), `DenormPreserve${w}`);
    assert.equal(c.denormFlushToZero, field(`${fc}.shaderDenormFlushToZeroFloat${w}`), `DenormFlushToZero${w}`);
    assert.equal(c.roundingModeRTE, field(`${fc}.shaderRoundingModeRTEFloat${w}`), `RTE${w}`);
    assert.equal(c.roundingModeRTZ, field(`${fc}.shaderRoundingModeRTZFloat${w}`), `RTZ${w}`);
  }

  assert.equal(p.subgroup.size, field('properties.VkPhysicalDeviceSubgroupProperties.subgroupSize'));
  // VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT → shuffleRelative, ..._PARTITIONED_BIT_NV → partitionedNV
  const ops = (field('properties.VkPhysicalDeviceSubgroupProperties.supportedOperations') as string[])
    .map((s) => {
      const m = /^VK_SUBGROUP_FEATURE_([A-Z_]+?)_BIT(?:_(KHR|NV|EXT))?$/.exec(s);
      assert.ok(m, `vulkaninfo subgroup operation ${s}`);
      const camel = (m[1] ?? '').toLowerCase().replace(/_(.)/g, (_m, c: string) => c.toUpperCase());
      return camel + (m[2] === 'NV' ? 'NV' : '');
    })
    .sort();
  // Debian 12's vulkaninfo (headers 1.3.239) predates the rotate bits (0x200, 0x400: Vulkan 1.4 /
  // VK_KHR_shader_subgroup_rotate) and does not print them: compare the bits it knows.
  const newer = new Set(['rotate', 'rotateClustered']);
  assert.deepEqual([...p.subgroup.supportedOperations].filter((o) => ops.includes(o) || !newer.has(o)).sort(), ops);
  assert.equal(p.subgroup.unknownOperationBits, 0);
  const stages = field('properties.VkPhysicalDeviceSubgroupProperties.supportedStages') as string[];
  assert.equal(p.subgroup.supportedInCompute, stages.includes('VK_SHADER_STAGE_COMPUTE_BIT'));
  const ssc = 'properties.VkPhysicalDeviceSubgroupSizeControlProperties';
  assert.equal(p.subgroup.minSize, field(`${ssc}.minSubgroupSize`));
  assert.equal(p.subgroup.maxSize, field(`${ssc}.maxSubgroupSize`));
  assert.equal(p.subgroup.maxComputeWorkgroupSubgroups, field(`${ssc}.maxComputeWorkgroupSubgroups`));
  assert.equal(p.subgroup.requiredSizeInCompute, (field(`${ssc}.requiredSubgroupSizeStages`) as string[]).includes('VK_SHADER_STAGE_COMPUTE_BIT'));

  // every listed feature is enabled exactly when the device offers it
  const offered: Record<keyof DeviceProfile['features'], unknown> = {
    shaderFloat64: field('features.VkPhysicalDeviceFeatures.shaderFloat64'),
    shaderInt64: field('features.VkPhysicalDeviceFeatures.shaderInt64'),
    shaderInt16: field('features.VkPhysicalDeviceFeatures.shaderInt16'),
    shaderFloat16: field('features.VkPhysicalDeviceShaderFloat16Int8Features.shaderFloat16'),
    shaderInt8: field('features.VkPhysicalDeviceShaderFloat16Int8Features.shaderInt8'),
    storageBuffer8BitAccess: field('features.VkPhysicalDevice8BitStorageFeatures.storageBuffer8BitAccess'),
    storageBuffer16BitAccess: field('features.VkPhysicalDevice16BitStorageFeatures.storageBuffer16BitAccess'),
    bufferDeviceAddress: field('features.VkPhysicalDeviceBufferDeviceAddressFeatures.bufferDeviceAddress'),
    shaderBufferInt64Atomics: field('features.VkPhysicalDeviceShaderAtomicInt64Features.shaderBufferInt64Atomics'),
    subgroupSizeControl: field('features.VkPhysicalDeviceSubgroupSizeControlFeatures.subgroupSizeControl'),
    computeFullSubgroups: field('features.VkPhysicalDeviceSubgroupSizeControlFeatures.computeFullSubgroups'),
    vulkanMemoryModel: field('features.VkPhysicalDeviceVulkanMemoryModelFeatures.vulkanMemoryModel'),
    vulkanMemoryModelDeviceScope: field('features.VkPhysicalDeviceVulkanMemoryModelFeatures.vulkanMemoryModelDeviceScope'),
    shaderSubgroupClock: offeredOr('features.VkPhysicalDeviceShaderClockFeaturesKHR.shaderSubgroupClock', false),
    shaderDeviceClock: offeredOr('features.VkPhysicalDeviceShaderClockFeaturesKHR.shaderDeviceClock', false),
  };
  assert.deepEqual({ ...p.features }, offered);

  const lim = 'properties.VkPhysicalDeviceProperties.limits';
  assert.deepEqual([...p.limits.maxComputeWorkGroupCount], field(`${lim}.maxComputeWorkGroupCount`));
  assert.equal(p.limits.maxStorageBufferRange, field(`${lim}.maxStorageBufferRange`));
  assert.equal(p.limits.maxPushConstantsSize, field(`${lim}.maxPushConstantsSize`));
  assert.deepEqual([...p.extensions].sort(), Object.keys(field('extensions') as object).sort());
});

test('subgroupOperations decodes VkSubgroupFeatureFlags bits (values from vulkan_core.h)', () => {
  // BASIC 0x1, VOTE 0x2, ARITHMETIC 0x4, BALLOT 0x8, SHUFFLE 0x10, SHUFFLE_RELATIVE 0x20, CLUSTERED 0x40, QUAD 0x80
  assert.deepEqual(subgroupOperations(0x8b), { names: ['basic', 'vote', 'ballot', 'quad'], unknown: 0 });
  assert.deepEqual(subgroupOperations(0x40 | 0x1000), { names: ['clustered'], unknown: 0x1000 });
});

// ---------------------------------------------------------------- dispatches, checked against JS

async function runAdd(n: number, seed: number): Promise<{ ok: boolean; ms: number; dispatchMs: number; pipelineMs: number }> {
  const next = rng(seed);
  const a = new Uint32Array(n).map(() => next());
  const b = new Uint32Array(n).map(() => next());
  const o = new Uint32Array(n).fill(0xdeadbeef);
  const r = await dev.run(mods.add, 'main', [a, b, o], undefined, [Math.ceil(n / 64), 1, 1]);
  let ok = true;
  for (let i = 0; i < n; i++) if (o[i] !== (((a[i] as number) + (b[i] as number)) >>> 0)) ok = false;
  return { ok, ms: r.ms, dispatchMs: r.dispatchMs, pipelineMs: r.pipelineMs };
}

test('buffer add: o[i] = a[i] + b[i] (u32, wrapping), 1000 elements, buffers read back in place', async (t) => {
  const first = await runAdd(1000, 1);
  assert.ok(first.ok, 'first run');
  const second = await runAdd(1000, 2);
  assert.ok(second.ok, 'second run');
  t.diagnostic(`add: first ${first.ms.toFixed(1)} ms (pipeline ${first.pipelineMs.toFixed(1)}, dispatch ${first.dispatchMs.toFixed(1)}); ` +
    `second ${second.ms.toFixed(1)} ms (pipeline ${second.pipelineMs.toFixed(1)}, dispatch ${second.dispatchMs.toFixed(1)})`);
  // a plain ArrayBuffer works as well as a typed array; the array length is the buffer's size / 4
  const a = new ArrayBuffer(12), b = new ArrayBuffer(12), o = new ArrayBuffer(12);
  new Uint32Array(a).set([1, 2, 0xffffffff]);
  new Uint32Array(b).set([10, 20, 2]);
  await dev.run(mods.add, 'main', [a, b, o], undefined, [1, 1, 1]);
  assert.deepEqual([...new Uint32Array(o)], [11, 22, 1]);
});

test('several runs in flight at once; close() refuses while they are', async () => {
  const runs = [runAdd(256, 3), runAdd(4096, 4), runAdd(64, 5)];
  assert.throws(() => dev.close(), (e: unknown) => e instanceof VulkanError && e.code === 'ERR_VULKAN_STATE');
  const done = await Promise.all(runs);
  assert.deepEqual(done.map((d) => d.ok), [true, true, true]);
});

test('PhysicalStorageBuffer64: pointers patched into the push block, load/store through them, addresses reported', async () => {
  if (!dev.profile.features.bufferDeviceAddress || !dev.profile.features.shaderInt64) {
    assert.fail('the device lacks bufferDeviceAddress or shaderInt64');
  }
  const n = 100;
  const next = rng(7);
  const src = new Uint32Array(n).map(() => next());
  const dst = new Uint32Array(n);
  const report = new BigUint64Array(2);
  const push = new ArrayBuffer(24);
  new DataView(push).setUint32(16, n, true);
  const r = await dev.run(mods.psb, 'main', [src, dst, report], push, [Math.ceil(n / 32), 1, 1], {
    addressPatches: [
      { buffer: 0, into: 'push', offset: 0 },
      { buffer: 1, into: 'push', offset: 8 },
    ],
  });
  assert.ok(r.addresses, 'addresses returned');
  const addrs = r.addresses ?? [];
  assert.equal(addrs.length, 3);
  assert.equal(report[0], addrs[0], 'the shader saw buffer 0 at the reported address');
  assert.equal(report[1], addrs[1], 'the shader saw buffer 1 at the reported address');
  assert.notEqual(addrs[0], 0n);
  for (let i = 0; i < n; i++) assert.equal(dst[i], (Math.imul(src[i] as number, 3) + 1) >>> 0, `dst[${i}]`);
  assert.deepEqual([...src], [...new Uint32Array(n).map(rng(7))], 'src unchanged');
});

test('subgroup ballot: SubgroupSize is the profile size (and vulkaninfo\'s), ballot of odd lanes', async () => {
  const check = (out: Uint32Array, size: number): void => {
    const lanes = new Map<number, number>();
    const expect = [0, 0, 0, 0];
    for (let l = 1; l < size; l += 2) expect[l >> 5] = ((expect[l >> 5] as number) | (1 << (l & 31))) >>> 0;
    for (let i = 0; i < 64; i++) {
      assert.equal(out[6 * i], size, `SubgroupSize of invocation ${i}`);
      const lane = out[6 * i + 1] as number;
      assert.ok(lane < size, `lane ${lane} < ${size}`);
      lanes.set(lane, (lanes.get(lane) ?? 0) + 1);
      assert.deepEqual([...out.subarray(6 * i + 2, 6 * i + 6)], expect, `ballot of invocation ${i}`);
    }
    assert.equal(lanes.size, size, 'every lane id occurs');
    for (const c of lanes.values()) assert.equal(c, 64 / size, 'each lane id once per subgroup');
  };
  const p = dev.profile;
  const out = new Uint32Array(64 * 6);
  await dev.run(mods.ballot, 'main', [out], undefined, [1, 1, 1]);
  const seen = out[0] as number;
  assert.ok(seen >= p.subgroup.minSize && seen <= p.subgroup.maxSize, `subgroup size ${seen} in [${p.subgroup.minSize}, ${p.subgroup.maxSize}]`);
  if (p.subgroup.minSize === p.subgroup.maxSize) assert.equal(seen, field('properties.VkPhysicalDeviceSubgroupProperties.subgroupSize'));
  check(out, seen);

  // every size the device can be asked for, with full subgroups
  assert.ok(p.features.subgroupSizeControl && p.subgroup.requiredSizeInCompute, 'subgroupSizeControl in compute');
  for (let s = p.subgroup.minSize; s <= p.subgroup.maxSize; s *= 2) {
    const o2 = new Uint32Array(64 * 6);
    await dev.run(mods.ballot, 'main', [o2], undefined, [1, 1, 1], { requiredSubgroupSize: s, fullSubgroups: true });
    check(o2, s);
  }
  await assert.rejects(
    dev.run(mods.ballot, 'main', [out], undefined, [1, 1, 1], { requiredSubgroupSize: p.subgroup.maxSize * 2 }),
    (e: unknown) => e instanceof VulkanError && e.code === 'ERR_OUT_OF_RANGE' && /requiredSubgroupSize/.test(e.message),
  );
  await assert.rejects(
    dev.run(mods.ballot, 'main', [out], undefined, [1, 1, 1], { requiredSubgroupSize: 3 * p.subgroup.minSize }),
    (e: unknown) => e instanceof VulkanError && e.code === 'ERR_OUT_OF_RANGE',
  );
});

test('f64: mul, add, sub and mul-then-add (NoContraction) bit-exact against JS doubles', async () => {
  assert.ok(dev.profile.features.shaderFloat64, 'shaderFloat64');
  const next = rng(11);
  const rand = (): number => {
    // normal doubles with exponents in [-200, 200]: no subnormal results (DenormPreserve is not guaranteed)
    const m = 1 + next() / 2 ** 32 + next() / 2 ** 64;
    return (next() & 1 ? -1 : 1) * m * 2 ** ((next() % 401) - 200);
  };
  const special = [0, -0, 1, -1, Infinity, -Infinity, 0.1, 3, 2 ** 52, -(2 ** 53)];
  const n = 1000;
  const a = new Float64Array(n), b = new Float64Array(n), c = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    a[i] = i < special.length ? (special[i] as number) : rand();
    b[i] = i < special.length ? (special[(i * 7 + 3) % special.length] as number) : i % 10 === 0 ? -(a[i] as number) : rand();
    c[i] = i % 13 === 0 ? -((a[i] as number) * (b[i] as number)) : rand();
  }
  const o = new Float64Array(4 * n);
  await dev.run(mods.f64, 'main', [a, b, c, o], undefined, [Math.ceil(n / 16), 1, 1]);
  const same = (x: number, y: number): boolean => (Number.isNaN(x) && Number.isNaN(y)) || Object.is(x, y);
  let bad = 0;
  const first: string[] = [];
  for (let i = 0; i < n; i++) {
    const x = a[i] as number, y = b[i] as number, z = c[i] as number;
    const want = [x * y, x + y, x - y, x * y + z];
    for (let k = 0; k < 4; k++) {
      if (!same(o[4 * i + k] as number, want[k] as number)) {
        bad++;
        if (first.length < 5) first.push(`i=${i} op ${k}: a=${x} b=${y} c=${z} got ${o[4 * i + k]} want ${want[k]}`);
      }
    }
  }
  assert.equal(bad, 0, first.join('\n'));
});

// ---------------------------------------------------------------- error paths

async function rejectsWith(p: Promise<unknown>, code: string, pattern: RegExp): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof VulkanError, `a VulkanError, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    assert.match(e.message, pattern);
    return true;
  });
}

test('bad SPIR-V is refused with a clear message, not a crash: magic, truncation, entry point', async () => {
  const o = new Uint32Array(4);
  const badMagic = mods.add.slice();
  badMagic[0] = 0x03022307; // byte-swapped magic
  await rejectsWith(dev.run(badMagic, 'main', [o, o, o], undefined, [1, 1, 1]), 'ERR_INVALID_SPIRV', /magic number 0x03022307/);
  await rejectsWith(dev.run(new Uint32Array([0x07230203]), 'main', [], undefined, [1, 1, 1]), 'ERR_INVALID_SPIRV', /header/);
  // cut inside the first instruction (OpCapability Shader: 2 words at word 5)
  assert.equal(mods.add[5], (2 << 16) | 17);
  await rejectsWith(dev.run(mods.add.slice(0, 6), 'main', [], undefined, [1, 1, 1]),
    'ERR_INVALID_SPIRV', /instruction at word 5 has word count 2 \(1 word left\)/);
  const zeroCount = mods.add.slice();
  zeroCount[5] = 0;
  await rejectsWith(dev.run(zeroCount, 'main', [o, o, o], undefined, [1, 1, 1]), 'ERR_INVALID_SPIRV', /word count 0/);
  await rejectsWith(dev.run(mods.add, 'nope', [o, o, o], undefined, [1, 1, 1]), 'ERR_INVALID_SPIRV', /no GLCompute OpEntryPoint named "nope"/);
  await rejectsWith(dev.run(new Uint8Array(8) as unknown as Uint32Array, 'main', [], undefined, [1, 1, 1]), 'ERR_INVALID_ARG_TYPE', /Uint32Array/);
});

test('limits: over 1 GiB of buffers, a buffer over maxStorageBufferRange, groups, push bytes', async () => {
  const o = new Uint32Array(4);
  // ArrayBuffers are zero-filled lazily by the OS: none of this memory is touched
  const chunk = Math.min(dev.profile.limits.maxStorageBufferRange, 2 ** 27);
  const count = Math.floor(2 ** 30 / chunk) + 1;
  const big = Array.from({ length: count }, () => new ArrayBuffer(chunk));
  await rejectsWith(dev.run(mods.add, 'main', big, undefined, [1, 1, 1]), 'ERR_OUT_OF_RANGE', /over the 1 GiB limit/);
  const range = dev.profile.limits.maxStorageBufferRange;
  if (range < 2 ** 30) {
    await rejectsWith(dev.run(mods.add, 'main', [o, o, new ArrayBuffer(range + 4)], undefined, [1, 1, 1]), 'ERR_OUT_OF_RANGE', /maxStorageBufferRange/);
  } else {
    await rejectsWith(dev.run(mods.add, 'main', [o, o, new ArrayBuffer(2 ** 30 + 4)], undefined, [1, 1, 1]), 'ERR_OUT_OF_RANGE', /1 GiB/);
  }
  await rejectsWith(dev.run(mods.add, 'main', [o, o, o], undefined, [65536, 1, 1]), 'ERR_OUT_OF_RANGE', /groups\[0\] = 65536/);
  await rejectsWith(dev.run(mods.add, 'main', [o, o, o], undefined, [1, 0, 1]), 'ERR_OUT_OF_RANGE', /groups\[1\] = 0/);
  await rejectsWith(dev.run(mods.add, 'main', [o, o, o], undefined, [1, 1, 1.5]), 'ERR_OUT_OF_RANGE', /groups\[2\]/);
  await rejectsWith(dev.run(mods.add, 'main', [o, o, o], new ArrayBuffer(132), [1, 1, 1]), 'ERR_OUT_OF_RANGE', /132 bytes, over 128/);
  await rejectsWith(dev.run(mods.psb, 'main', [o, o, o], new ArrayBuffer(24), [1, 1, 1], { addressPatches: [{ buffer: 3, into: 'push', offset: 0 }] }),
    'ERR_OUT_OF_RANGE', /buffer index/);
  await rejectsWith(dev.run(mods.psb, 'main', [o, o, o], new ArrayBuffer(24), [1, 1, 1], { addressPatches: [{ buffer: 0, into: 1, offset: 12 }] }),
    'ERR_OUT_OF_RANGE', /offset \+ 8/);
  await rejectsWith(dev.run(mods.ballot, 'main', [o], undefined, [1, 1, 1], { fullSubgroups: true, requiredSubgroupSize: dev.profile.subgroup.maxSize * 4 }),
    'ERR_OUT_OF_RANGE', /requiredSubgroupSize/);
  // the device still works after every refusal
  assert.ok((await runAdd(500, 9)).ok);
});

// ---------------------------------------------------------------- validation layer

const PUSH_VUID = /^VUID-VkComputePipelineCreateInfo-layout-(00703|07987)$/; // the push block must lie inside the layout's push range

test('validation: a push range smaller than the shader\'s push block rejects the run with ERR_VALIDATION, every time', async () => {
  const push = new Uint32Array(8).map((_, k) => 100 + k);
  const o = new Uint32Array(1);
  // the whole 32-byte block in range: clean, out[0] = x[7]
  const clean = await dev.run(mods.push8, 'main', [o], push, [1, 1, 1], { pushBytes: 32 });
  assert.equal(o[0], 107);
  assert.deepEqual(clean.validation, []);
  // 16 bytes of range for a block that reads x[7] at byte 28: VUID-VkComputePipelineCreateInfo-layout-00703 (07987 in newer specs).
  // 12 times: the layer's duplicate-message limit (10 by default) is lifted, and a pipeline whose creation drew an error is not cached.
  for (let k = 0; k < 12; k++) {
    await assert.rejects(dev.run(mods.push8, 'main', [o], push.subarray(0, 4), [1, 1, 1], { pushBytes: 16 }), (e: unknown) => {
      assert.ok(e instanceof VulkanError, String(e));
      assert.equal(e.code, 'ERR_VALIDATION', e.message);
      const lines = e.message.split('\n');
      assert.match(lines[0] ?? '', /^the Khronos validation layer reported 1 error during this run \(first: VUID-VkComputePipelineCreateInfo-layout-/);
      assert.equal(lines.length, 2, 'one line per message');
      assert.match(lines[1] ?? '', /^error VUID-VkComputePipelineCreateInfo-layout-\d+: .*[Pp]ush constant/);
      assert.equal(e.messages.length, 1);
      assert.equal(e.messages[0]?.severity, 'error');
      assert.match(e.messages[0]?.id ?? '', PUSH_VUID);
      return true;
    }, `faulty run ${k}`);
  }
  // the device goes on, and the correct layout is still clean (from the cache)
  o[0] = 0;
  const again = await dev.run(mods.push8, 'main', [o], push, [1, 1, 1], { pushBytes: 32 });
  assert.equal(o[0], 107);
  assert.equal(again.pipelineCached, true);
  const errors = dev.validationMessages().filter((m) => m.severity === 'error');
  assert.equal(errors.length, 12);
  assert.ok(errors.every((m) => PUSH_VUID.test(m.id)), errors.map((m) => m.id).join(', '));
});

test('pushBytes: 0 (no push range) for a kernel without a push block; data over the range is refused', async () => {
  const a = new Uint32Array([1, 2, 3]), b = new Uint32Array([4, 5, 6]), o = new Uint32Array(3);
  const r = await dev.run(mods.add, 'main', [a, b, o], undefined, [1, 1, 1], { pushBytes: 0 });
  assert.deepEqual([...o], [5, 7, 9]);
  assert.deepEqual(r.validation, []);
  await assert.rejects(dev.run(mods.push8, 'main', [o], new ArrayBuffer(36), [1, 1, 1], { pushBytes: 32 }),
    (e: unknown) => e instanceof VulkanError && e.code === 'ERR_OUT_OF_RANGE' && /36 bytes, over the push range of 32/.test(e.message));
  for (const bad of [-4, 6, 132, 1.5]) {
    await assert.rejects(dev.run(mods.push8, 'main', [o], undefined, [1, 1, 1], { pushBytes: bad }),
      (e: unknown) => e instanceof VulkanError && e.code === 'ERR_OUT_OF_RANGE' && /pushBytes/.test(e.message), `pushBytes ${bad}`);
  }
  await assert.rejects(dev.run(mods.psb, 'main', [o, o, o], new ArrayBuffer(16), [1, 1, 1], { pushBytes: 16, addressPatches: [{ buffer: 0, into: 'push', offset: 12 }] }),
    (e: unknown) => e instanceof VulkanError && e.code === 'ERR_OUT_OF_RANGE' && /offset \+ 8/.test(e.message));
});

// ---------------------------------------------------------------- reuse across runs

test('reuse: the same kernel again takes its pipeline from the cache and its buffers from the pool; other words or layouts do not', async (t) => {
  const before = dev.cacheStats();
  const runs: RunResult[] = [];
  const add = async (spirv: Uint32Array, n: number, seed: number, local = 64): Promise<RunResult> => {
    const next = rng(seed);
    const a = new Uint32Array(n).map(() => next()), b = new Uint32Array(n).map(() => next()), o = new Uint32Array(n);
    const r = await dev.run(spirv, 'main', [a, b, o], undefined, [Math.ceil(n / local), 1, 1]);
    for (let i = 0; i < n; i++) assert.equal(o[i], ((a[i] as number) + (b[i] as number)) >>> 0, `seed ${seed} o[${i}]`);
    runs.push(r);
    return r;
  };
  const cold = await add(mods.add16, 1000, 21, 16);
  assert.equal(cold.pipelineCached, false, 'first run of these words');
  // a fresh copy of the words (another array, same contents) hits: the key is the contents
  const warm = await add(mods.add16.slice(), 1000, 22, 16);
  assert.equal(warm.pipelineCached, true);
  assert.equal(warm.buffersReused, 3);
  // 600 elements (2400 bytes) fit the 4096-byte buffers of 1000 elements
  const smaller = await add(mods.add16, 600, 23, 16);
  assert.equal(smaller.pipelineCached, true);
  assert.equal(smaller.buffersReused, 3);
  // 100 000 elements do not fit any free buffer
  const bigger = await add(mods.add16, 100_000, 24, 16);
  assert.equal(bigger.pipelineCached, true);
  assert.equal(bigger.buffersReused, 0);
  const other = await add(mods.add32, 1000, 25, 32);
  assert.equal(other.pipelineCached, false, 'other SPIR-V words');
  const o = new Uint32Array(3);
  const otherLayout = await dev.run(mods.add, 'main', [o, o, o], undefined, [1, 1, 1], { pushBytes: 64 });
  assert.equal(otherLayout.pipelineCached, false, 'another push range');
  const after = dev.cacheStats();
  assert.equal(after.pipelineHits - before.pipelineHits, 3);
  assert.equal(after.pipelineMisses - before.pipelineMisses, runs.length + 1 - 3);
  assert.ok(after.freeBuffers <= 64 && after.freeBufferBytes <= 256 * 2 ** 20, `pool within its limits: ${JSON.stringify(after)}`);
  t.diagnostic(`reuse: cold ${runs[0]?.ms.toFixed(2)} ms (pipeline ${runs[0]?.pipelineMs.toFixed(2)}), warm ${warm.ms.toFixed(2)} ms (pipeline ${warm.pipelineMs.toFixed(3)})`);
});

test('reuse: a buffer from the pool is bound with the run\'s own size (arrayLength), not the pool buffer\'s capacity', async () => {
  const out = new Uint32Array(2);
  await dev.run(mods.len, 'main', [new ArrayBuffer(4000), out], undefined, [1, 1, 1]);
  assert.deepEqual([...out], [1000, 2]);
  // 2100 bytes reuse the 4000-byte run's buffer; 2 bytes are bound as one u32 (sizes round up to 4)
  const r = await dev.run(mods.len, 'main', [new ArrayBuffer(2100), out], undefined, [1, 1, 1]);
  assert.equal(r.buffersReused, 2);
  assert.deepEqual([...out], [525, 2]);
  await dev.run(mods.len, 'main', [new ArrayBuffer(2), out], undefined, [1, 1, 1]);
  assert.deepEqual([...out], [1, 2]);
});

test('reuse: warm runs of one kernel skip pipeline creation (timings)', async (t) => {
  const n = 4096;
  const a = new Uint32Array(n).fill(3), b = new Uint32Array(n).fill(4), o = new Uint32Array(n);
  const spirv = assemble('add-timing', ADD.replace('%c0 = OpConstant %uint 0', '%c0 = OpConstant %uint 0\n%unused = OpConstant %uint 12345'));
  const times: RunResult[] = [];
  for (let k = 0; k < 20; k++) times.push(await dev.run(spirv, 'main', [a, b, o], undefined, [n / 64, 1, 1]));
  assert.ok(o.every((v) => v === 7));
  const [cold, ...warm] = times;
  assert.ok(cold && !cold.pipelineCached, 'the first run builds its pipeline');
  assert.ok(warm.every((r) => r.pipelineCached && r.buffersReused === 3), 'every later run reuses pipeline and buffers');
  const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[xs.length >> 1] ?? NaN;
  t.diagnostic(`add ${n}: cold ${cold.ms.toFixed(2)} ms (pipeline ${cold.pipelineMs.toFixed(2)}, dispatch ${cold.dispatchMs.toFixed(2)}); ` +
    `warm median ${median(warm.map((r) => r.ms)).toFixed(2)} ms (pipeline ${median(warm.map((r) => r.pipelineMs)).toFixed(3)}, ` +
    `upload ${median(warm.map((r) => r.uploadMs)).toFixed(3)}, dispatch ${median(warm.map((r) => r.dispatchMs)).toFixed(2)})`);
});

test('close(): every validation message of this file was provoked on purpose, and the teardown is clean', () => {
  const all = dev.validationMessages();
  const unexpected = all.filter((m) => !PUSH_VUID.test(m.id));
  assert.deepEqual(unexpected, [], 'no other warning or error in any run');
  assert.equal(all.length, 12);
  dev.close();
  assert.deepEqual(dev.validationMessages(), [], 'nothing left alive at vkDestroyDevice');
  assert.throws(() => dev.cacheStats(), (e: unknown) => e instanceof VulkanError && e.code === 'ERR_VULKAN_STATE');
});
