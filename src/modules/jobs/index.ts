import { defineModule } from '../../platform/modules.ts';
import jobRoutes from './jobs.routes.ts';
import { jobReadings } from './jobs.backlog.ts';

// What a module needs to queue and run jobs of its own, and the loop that polls for them (started by src/background).
export {
  advance,
  claimNext,
  claimQueued,
  insertJob,
  LostClaim,
  recordClientOutcome,
  setTargets,
} from './jobs.repository.ts';
export { assertMayRun, JobFailed, kickJob, Refused, Released, RetryLater, runClaimed } from './jobs.runner.ts';
export { runChunkedJob, type ChunkedJob, type ChunkOutcome } from './jobs.chunks.ts';
export { getJob } from './jobs.service.ts';
export { runJobsOnce, startJobRunner, type JobHandlers } from './jobs.loop.ts';
export { Job, type JobRecord } from './jobs.schemas.ts';
// The job backlog, for the operator's status view (GET /metrics reads it through `readings`).
export { jobBacklog, type JobBacklog } from './jobs.backlog.ts';
// A job's status and error for the records that show them (digitizations).
export { jobStates } from './jobs.states.ts';
// For a job done in one step: its result, stored on the job.
export { recordJobResult } from './jobs.results.ts';

export default defineModule({
  name: 'jobs',
  tables: ['jobs'],
  routes: jobRoutes,
  readings: jobReadings,
});
