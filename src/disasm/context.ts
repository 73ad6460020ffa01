// What the printer may know beyond the instruction itself.

/**
 * What the printer may know beyond the instruction: llvm-objdump's symbolizer prints a branch
 * target that is exactly the address of an untyped (STT_NOTYPE) symbol of the section as that
 * symbol's name instead of the offset.
 */
export interface PrintContext {
  readonly symbolAt?: (pc: number) => string | undefined;
}
