// The SPIR-V backend's module builder and disassembler (core: no Node APIs). See module.ts, disasm.ts.
export { Module, type ModuleOptions, type SpirvVersion, type TypeInfo } from './module.js';
export { BuilderError, Id } from './operands.js';
export { disassembleSpirv, SpirvDisasmError, type DisasmOptions } from './disasm.js';
export type { EnumArg, EnumKind, Enumerant, GlslName, OpArgs, OpMethods, OpName, OpResult, Operand } from './signatures.js';
