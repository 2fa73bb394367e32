/**
 * `gwops doctor`: what the gateway is and whether gwops fits it (src/operations/doctor.ts),
 * shown in the view of `--format`; the exit code says whether it found a problem.
 */
import { EXIT } from '../../../core/exit-codes.js';
import { doctorProblems, runDoctor } from '../../../operations/doctor.js';
import type { ConnectionFlags } from '../../connection-flags.js';
import { gatewayInput } from '../../connection-flags.js';
import type { CliIO } from '../../io.js';
import type { DoctorFormat } from './view.js';
import { doctorView } from './view.js';

/** Flags of `gwops doctor`. */
export interface DoctorFlags extends ConnectionFlags {
  format: DoctorFormat;
}

/** `gwops doctor`. @returns EXIT.ok when gwops fits the gateway, EXIT.error when the report names a problem */
export async function doctorAction(flags: DoctorFlags, io: CliIO): Promise<number> {
  const report = await runDoctor(gatewayInput(flags, io));
  const problems = doctorProblems(report);
  doctorView(flags.format, io).report(report, problems);
  return problems.length === 0 ? EXIT.ok : EXIT.error;
}
