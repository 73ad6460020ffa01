// All instruction-word generators, by encoding family.
import type { CaseGenerator } from './types.js';
import { GENERATORS as scalar } from './scalar.js';
import { GENERATORS as valuBase } from './valu-base.js';
import { GENERATORS as vop3 } from './vop3.js';
import { GENERATORS as vop3p } from './vop3p.js';
import { GENERATORS as dppSdwa } from './dpp-sdwa.js';
import { GENERATORS as dsVintrpExp } from './ds-vintrp-exp.js';
import { GENERATORS as buffer } from './buffer.js';
import { GENERATORS as mimgFlat } from './mimg-flat.js';

export const ALL_GENERATORS: readonly CaseGenerator[] = [
  ...scalar, ...valuBase, ...vop3, ...vop3p, ...dppSdwa, ...dsVintrpExp, ...buffer, ...mimgFlat,
];

export function generatorNamed(name: string): CaseGenerator | undefined {
  return ALL_GENERATORS.find((g) => g.name.toLowerCase() === name.toLowerCase());
}
