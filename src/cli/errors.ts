// CLI error kinds: a usage error exits 2, bad input exits 1; both print one line.
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
export class InputError extends Error {
  override readonly name = 'InputError';
}
