/**
 * @module The console's short name for a server: the first part of the names its tools are
 * offered to a model under (`notes__delete_note`), readable and unique among the console's
 * servers. Taken from what the person configured (the server's identity), never from the name
 * the server gives itself.
 */

/**
 * The host of a URL, or the script a command runs (its first argument naming a path, else its
 * first word, else the program), cleaned to `A-Za-z0-9-_`, made unique against `taken`.
 */
export function shortName(target: string, taken: ReadonlySet<string>): string {
  let base: string;
  if (/^https?:\/\//i.test(target)) base = new URL(target).hostname.replace(/^www\./, '');
  else {
    const words = [...target.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1] ?? '');
    const args = words.slice(1);
    const file =
      args.find((w) => /[\\/]/.test(w)) ?? args.find((w) => !w.startsWith('-')) ?? words[0] ?? '';
    base = (file.split(/[\\/]/).pop() ?? file).replace(/\.[cm]?[jt]sx?$/, '');
  }
  base = base.replace(/[^A-Za-z0-9-]+/g, '_').slice(0, 24) || 'server';
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
  return name;
}
