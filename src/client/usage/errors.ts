// The usage command's errors: each names what was wrong in one line, and the command exits with status 2.
import { visibleText } from './visible-text.js';

export class UsageError extends Error {
  override name = 'UsageError';
}

/** The project has no tsconfig.json where it was looked for. */
export class NoTsconfigError extends UsageError {
  override name = 'NoTsconfigError';
}

/** The project does not compile: its usage cannot be read reliably from code the type checker rejects. */
export class ProjectCompileError extends UsageError {
  override name = 'ProjectCompileError';
}

/** A usage file that is not JSON, does not match the usage file's schema, or has another format version. */
export class UsageFormatError extends UsageError {
  override name = 'UsageFormatError';
}

/** The `--check` target is not an OpenAPI description of an API family of this package. */
export class CheckTargetError extends UsageError {
  override name = 'CheckTargetError';
}

/** The analyzer (ts-morph) or the validator (ajv) is not installed beside ramp-api. */
export class MissingPeerError extends UsageError {
  override name = 'MissingPeerError';
}

/** The code of a file system error (`ENOENT`, `ENOSPC`, ...), as the refusals name it. */
export const errnoCode = (error: unknown) => (error as NodeJS.ErrnoException).code ?? 'an error';

/**
 * One line: the error's name and its message, without a stack; a line break of the message read as a space, and any
 * other control character (from a name the message quotes) shown escaped.
 */
export const oneLine = (error: Error) => `${error.name}: ${visibleText(error.message.replace(/\s*\n\s*/g, ' '))}`;

/** A usage file given to `--from` that names an API family the project's ramp-api does not ship. */
export class StaleUsageError extends UsageError {
  override name = 'StaleUsageError';
}
