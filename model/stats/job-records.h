/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MLNET_JOB_RECORDS_H
#define MLNET_JOB_RECORDS_H

#include "ns3/nstime.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief One training iteration of a job (as seen by its reference worker, rank 0).
 *
 * end - start = periodWait + compute + exposedComm; gpuIdle = end - start - compute. periodWait is
 * the time the iteration waited for the job's MinIterationPeriod (TrainingJob) before its work
 * began (zero without that cap), so Duration() is the period-inclusive iteration time and
 * BusyTime() the time from the actual start (what the iteration takes without the cap). gpuIdle
 * equals exposedComm + periodWait for jobs whose GPU never idles for other reasons.
 */
struct IterationRecord
{
    std::string job;       //!< job name
    uint32_t jobId{0};     //!< job id
    uint64_t iteration{0}; //!< iteration index from 0
    Time start;            //!< iteration start
    Time end;              //!< iteration end
    Time compute;          //!< GPU busy time in the iteration
    Time exposedComm;      //!< communication time not hidden behind compute
    Time gpuIdle;          //!< GPU idle time in the iteration
    Time periodWait;       //!< wait for MinIterationPeriod before the work began (0 = none)

    /// \return end - start (the period-inclusive iteration time)
    Time Duration() const
    {
        return end - start;
    }

    /// \return when the iteration's work began: start + periodWait
    Time BusyStart() const
    {
        return start + periodWait;
    }

    /// \return end - BusyStart() (the iteration time from its actual start)
    Time BusyTime() const
    {
        return end - BusyStart();
    }
};

/**
 * \ingroup mlnet
 * \brief One message (RDMA send) of a job: flow completion time = completed - posted.
 */
struct MessageRecord
{
    std::string job;          //!< job name (or "background")
    uint32_t jobId{0};        //!< job id
    uint32_t srcHost{0};      //!< source host index (job-local rank where no host index is known)
    uint32_t dstHost{0};      //!< destination host index
    uint64_t bytes{0};        //!< message size
    uint8_t priorityClass{0}; //!< priority class used
    Time posted;              //!< time posted
    Time completed;           //!< time fully acknowledged

    /// \return completed - posted
    Time Fct() const
    {
        return completed - posted;
    }
};

/**
 * \ingroup mlnet
 * \brief Summary of a job: job completion time = end - start.
 */
struct JobRecord
{
    std::string job;        //!< job name
    uint32_t jobId{0};      //!< job id
    Time start;             //!< first iteration start
    Time end;               //!< last iteration end (zero if unfinished)
    uint64_t iterations{0}; //!< finished iterations
    bool finished{false};   //!< all requested iterations done

    /// \return job completion time (end - start), zero if unfinished
    Time Jct() const
    {
        return finished ? end - start : Time(0);
    }
};

} // namespace ns3

#endif /* MLNET_JOB_RECORDS_H */
