// Static signatures of the op methods, derived from the generated grammar table (no hand-kept list):
// an instruction's operand kinds in order become the method's parameter list, IdResult is left out
// (the builder allocates it) and decides whether the method returns an Id.
//
//   IdRef, IdResultType, IdScope, IdMemorySemantics  → Id
//   LiteralInteger, LiteralExtInstInteger            → number (a 32-bit word)
//   LiteralString                                    → string
//   LiteralContextDependentNumber                    → number | bigint (64-bit types: bigint)
//   LiteralSpecConstantOpInteger                     → an opcode name
//   a ValueEnum kind                                 → one enumerant name
//   a BitEnum kind                                   → one name or a list of names
//   `?`  optional; `*` (and pairs) a rest parameter, pairs flattened (OpPhi(type, v1, b1, v2, b2))
// An enum kind some of whose enumerants take parameters (Decoration, ExecutionMode, MemoryAccess,
// ...) ends the precise part: its parameters and anything after it are a loosely typed rest, which
// the builder checks against the grammar at emit time.
import type { ENUMS, GLSL_STD_450, OPS } from './grammar.js';
import type { Id } from './operands.js';

export type OpName = keyof typeof OPS;
export type EnumKind = keyof typeof ENUMS;
export type GlslName = keyof typeof GLSL_STD_450;
type Values<K extends EnumKind> = (typeof ENUMS)[K]['values'];
export type Enumerant<K extends EnumKind> = keyof Values<K> & string;
export type EnumArg<K extends EnumKind> = (typeof ENUMS)[K]['category'] extends 'BitEnum'
  ? Enumerant<K> | readonly Enumerant<K>[]
  : Enumerant<K>;

type WithParams<K extends EnumKind> = {
  [E in keyof Values<K>]: Values<K>[E] extends { readonly params: readonly unknown[] } ? E : never;
}[keyof Values<K>];
type HasParams<K extends EnumKind> = [WithParams<K>] extends [never] ? false : true;

/** Any operand value: what a loosely typed rest accepts. */
export type Operand = Id | number | bigint | string | readonly string[];

type IdKind = 'IdRef' | 'IdResultType' | 'IdScope' | 'IdMemorySemantics';
type One<K> = K extends IdKind ? Id
  : K extends 'LiteralInteger' | 'LiteralExtInstInteger' ? number
  : K extends 'LiteralString' ? string
  : K extends 'LiteralContextDependentNumber' ? number | bigint
  : K extends 'LiteralSpecConstantOpInteger' ? OpName
  : K extends EnumKind ? EnumArg<K>
  : K extends 'PairIdRefIdRef' ? Id
  : K extends 'PairLiteralIntegerIdRef' ? number | bigint | Id
  : K extends 'PairIdRefLiteralInteger' ? Id | number
  : never;

type Args<T> = T extends readonly [infer H, ...infer R]
  ? H extends 'IdResult' ? Args<R>
    : H extends `${infer K}*` ? One<K>[]
      : H extends `${infer K}?`
        ? K extends EnumKind
          ? HasParams<K> extends true ? [EnumArg<K>?, ...Operand[]] : [One<K>?, ...Args<R>]
          : [One<K>?, ...Args<R>]
        : H extends EnumKind
          ? HasParams<H> extends true ? [EnumArg<H>, ...Operand[]] : [One<H>, ...Args<R>]
          : [One<H>, ...Args<R>]
  : [];

type Spec<N extends OpName> = (typeof OPS)[N]['operands'];
export type OpArgs<N extends OpName> = Args<Spec<N>>;
export type OpResult<N extends OpName> = 'IdResult' extends Spec<N>[number] ? Id : void;

/** One method per instruction, named as the spec names it. */
export type OpMethods = { [N in OpName]: (...operands: OpArgs<N>) => OpResult<N> };
