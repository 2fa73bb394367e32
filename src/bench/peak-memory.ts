/**
 * The peak resident memory of this process.
 *
 * `process.resourceUsage().maxRSS` is not it for a process that another one started:
 * Linux keeps the high-water mark across `exec`, so a child forked from a process of
 * 300 MiB reports at least 300 MiB however little it uses itself. The kernel's own
 * high-water mark of this program's memory (`VmHWM` in /proc/self/status) starts at the
 * `exec`; it is read where /proc exists, `maxRSS` elsewhere.
 */
import { FILE_LIMITS, readTextBounded } from '../files.js';

/**
 * @returns the peak resident set size of this process since it started its program, in KiB
 *   (the unit of `maxRSS`); never throws
 */
export function peakResidentKib(): number {
  let status = '';
  try {
    // At most 64 KiB; the file holds about 1.5 KiB.
    status = readTextBounded('/proc/self/status', FILE_LIMITS.apiKey);
  } catch {
    return process.resourceUsage().maxRSS;
  }
  const kib = Number(/^VmHWM:\s*(\d+)\s*kB$/m.exec(status)?.[1]);
  return Number.isFinite(kib) && kib > 0 ? kib : process.resourceUsage().maxRSS;
}
