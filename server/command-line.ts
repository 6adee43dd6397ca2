import { ConfigError } from "./config.ts";

/**
 * Runs a command-line tool's `main` with its arguments and ends the process with the exit code it
 * answers; a configuration error is said in one line, anything else with its stack, exit code 1.
 */
export function runCommand(main: (args: string[]) => Promise<number>): void {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof ConfigError ? error.message : error);
      process.exit(1);
    },
  );
}
