// The SPIR-V backend's module builder (core: no Node APIs). See module.ts.
export { Module, type ModuleOptions, type SpirvVersion, type TypeInfo } from './module.js';
export { BuilderError, Id } from './operands.js';
export type { EnumArg, EnumKind, Enumerant, GlslName, OpArgs, OpMethods, OpName, OpResult, Operand } from './signatures.js';
