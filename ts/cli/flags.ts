/** A small `--name value` / `--name=value` / `--flag` parser for the CLI's subcommands. */
export interface Flags {
  values: Record<string, string | boolean>;
  positional: string[];
}

/** `spec` names each known flag and whether it takes a value; unknown flags are errors. */
export function parseFlags(args: string[], spec: Record<string, 'string' | 'boolean'>): Flags {
  const flags: Flags = { values: Object.create(null) as Record<string, string | boolean>, positional: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (!arg.startsWith('--')) {
      flags.positional.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    const kind = Object.hasOwn(spec, name) ? spec[name] : undefined;
    if (!kind) throw new Error(`unknown flag --${name}`);
    if (kind === 'boolean') {
      flags.values[name] = inline === undefined ? true : inline !== 'false';
    } else {
      const value = inline ?? args[++i];
      if (value === undefined) throw new Error(`--${name} needs a value`);
      flags.values[name] = value;
    }
  }
  return flags;
}
