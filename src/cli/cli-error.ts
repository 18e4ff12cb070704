// The command line's own refusals: printed as `hearth: message`, the process exiting with their code.

export class CliError extends Error {
  constructor(
    message: string,
    /** 1 for a refusal; a command may give a state its own code (`hearth migrate status`: 3 when behind). */
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** A command stopped by Ctrl-C once it has cleaned up: its message is said as it is, and the exit code is 130. */
export class CliInterrupted extends CliError {
  constructor(message: string) {
    super(message, 130);
  }
}
