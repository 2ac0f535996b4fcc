/**
 * @module The environment a spawned stdio server gets by default: only variables a program needs
 * to run (PATH, HOME, locale...), never the parent's secrets (tokens, keys). Callers add what the
 * server needs explicitly.
 */

const INHERITED =
  process.platform === 'win32'
    ? [
        'APPDATA',
        'HOMEDRIVE',
        'HOMEPATH',
        'LOCALAPPDATA',
        'PATH',
        'PATHEXT',
        'PROCESSOR_ARCHITECTURE',
        'SYSTEMDRIVE',
        'SYSTEMROOT',
        'TEMP',
        'TMP',
        'USERNAME',
        'USERPROFILE',
        'PROGRAMFILES',
      ]
    : ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'LANG', 'LC_ALL', 'TMPDIR', 'TZ'];

/** The default environment of a spawned server. */
export function defaultEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of INHERITED) {
    const value = process.env[key];
    // Skip exported shell functions ("() { ...}"), a classic injection vector.
    if (value === undefined || value.startsWith('()')) continue;
    env[key] = value;
  }
  return env;
}
