/**
 * The peak resident memory of this process.
 *
 * `process.resourceUsage().maxRSS` is not it for a process that another one started:
 * Linux keeps the high-water mark across `exec`, so a child forked from a process of
 * 300 MiB reports at least 300 MiB however little it uses itself. The kernel's own
 * high-water mark of this program's memory (`VmHWM` in /proc/self/status) starts at the
 * `exec`; it is read where /proc exists, `maxRSS` elsewhere.
 */
import { readTextBounded } from '#src/core/files.js';

/** The most of /proc/self/status read, in bytes (it holds about 1.5 KiB). */
const STATUS_LIMIT = 64 * 1024;

/**
 * @returns the peak resident set size of this process since it started its program, in KiB
 *   (the unit of `maxRSS`); never throws
 */
export function peakResidentKib(): number {
  let status = '';
  try {
    status = readTextBounded('/proc/self/status', STATUS_LIMIT);
  } catch {
    return process.resourceUsage().maxRSS;
  }
  const kib = Number(/^VmHWM:\s*(\d+)\s*kB$/m.exec(status)?.[1]);
  return Number.isFinite(kib) && kib > 0 ? kib : process.resourceUsage().maxRSS;
}
