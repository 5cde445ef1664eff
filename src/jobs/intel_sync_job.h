/* The scheduled intel sync (BULWARK_INTEL_SYNC_INTERVAL): a job of kind "intel_sync" per interval
 * slot, running the same sync as `bulwark intel sync` (src/services/intel_sync.h).
 *
 * Once per interval across instances: time is cut into slots of the interval, aligned to the epoch
 * (an interval of a day starts at 00:00 UTC), and the slot's job has the id
 * job_intelsync_<slot start in epoch seconds>. Every instance's scheduler (the pool's tick)
 * inserts that id when it sees a new slot; the primary key lets one insert win, and the queue's
 * claim (SKIP LOCKED on PostgreSQL) hands the job to one worker. The rows are durable, so a
 * restart within a slot does not sync again, and a first start syncs at once. Instances must
 * share the interval (different intervals make different slots).
 *
 * The job keeps its lease between sources, and bounds each download by a third of the lease, so
 * no other worker reclaims it while a download runs. Every source's outcome is stored in the
 * sync state (intel_sync_state) and logged without its URL (an operator's mirror URL may carry a
 * token); the job ends done whatever the sources answered (the next slot tries again), and only
 * a stop at shutdown gives it back to the queue. */
#ifndef BW_JOBS_INTEL_SYNC_JOB_H
#define BW_JOBS_INTEL_SYNC_JOB_H
#include "jobs/jobs.h"

#include <stdbool.h>
#include <stdint.h>

extern const struct bw_job_kind bw_intel_sync_job_kind;

/* The id of the slot holding now_ms for interval_ms (> 0), into out (BW_ID_MAX); the slot's start
 * (epoch ms) into *start. */
void bw_intel_sync_slot(int64_t now_ms, int64_t interval_ms, char out[BW_ID_MAX], int64_t *start);

/* A source's download time under a lease: BW_INTEL_SYNC_TIMEOUT_MS or a third of the lease. */
long bw_intel_sync_timeout(int64_t lease_ms);

#endif
