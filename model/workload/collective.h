/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MLNET_COLLECTIVE_H
#define MLNET_COLLECTIVE_H

#include "ns3/callback.h"
#include "ns3/data-class.h"
#include "ns3/message-transport.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/rdma-nic.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Base of the collectives over RDMA queue pairs: a group of NICs (ranks 0..n-1)
 * exchanging messages along a static dependency graph.
 *
 * A subclass turns an invocation of `bytes` into a plan of messages (source rank, destination
 * rank, size) where a message may wait for other messages to have been received at its source
 * (e.g. in a ring, step s+1 forwards what arrived in step s). The base posts each message on
 * the queue pair (source, destination) as soon as its dependencies are met, matches arrivals
 * through the destination's RdmaMessageDispatcher (messages on one QP arrive in order), and
 * reports a participant as done when everything it receives has arrived and everything it
 * sent has been acknowledged. Queue pairs are created on first use and reused by every
 * invocation. An invocation started while another runs is queued.
 */
class Collective : public Object
{
  public:
    /// A participant finished: (rank, bytes it sent, bytes it received).
    typedef Callback<void, uint32_t, uint64_t, uint64_t> ParticipantCallback;
    /// Every participant finished.
    typedef Callback<void> DoneCallback;
    /// Trace of a finished invocation: (bytes, duration).
    typedef void (*CompletedTracedCallback)(uint64_t bytes, Time duration);
    /// Trace of a finished participant: (rank, bytes sent, bytes received).
    typedef void (*ParticipantTracedCallback)(uint32_t rank, uint64_t sent, uint64_t received);

    /// \return the TypeId
    static TypeId GetTypeId();
    Collective();
    ~Collective() override;

    /// \return the collective's name ("RingAllReduce", ...)
    virtual std::string GetName() const = 0;

    /**
     * Set the participants (rank i = nics[i]). Only before the first Start().
     * \param nics the hosts' transports (RdmaNics, or FluidTransports in the flow backend),
     *        1..4096 distinct ones
     * \throws std::invalid_argument on a bad group
     */
    void SetGroup(const std::vector<Ptr<MessageTransport>>& nics);

    /// As SetGroup() above, for RDMA NICs (or any transports). \param nics the NICs
    template <class T>
    void SetGroup(const std::vector<Ptr<T>>& nics)
    {
        SetGroup(std::vector<Ptr<MessageTransport>>(nics.begin(), nics.end()));
    }

    /// \return the number of participants
    uint32_t GetGroupSize() const;

    /**
     * Start an invocation (queued if one is running).
     * \param bytes the collective's size (meaning per subclass; >= GetMinBytes())
     * \param perRank called once per participant when it is done (may be null)
     * \param done called once when every participant is done (may be null)
     * \throws std::invalid_argument on a bad size or no group
     */
    void Start(uint64_t bytes,
               ParticipantCallback perRank = ParticipantCallback(),
               DoneCallback done = DoneCallback());
    /// \return true while an invocation runs or waits
    bool IsBusy() const;
    /// \return finished invocations
    uint64_t GetCompletedInvocations() const;
    /// \return duration of the last finished invocation
    Time GetLastDuration() const;
    /// \return queue pairs created so far
    uint32_t GetNQueuePairs() const;
    /// \return smallest accepted size
    virtual uint64_t GetMinBytes() const;

    /**
     * \param total size \param parts number of parts (>= 1) \param index part index
     * \return size of part `index` when `total` is split as evenly as possible
     */
    static uint64_t SplitSize(uint64_t total, uint64_t parts, uint64_t index);

  protected:
    void DoDispose() override;
    /**
     * Build the message plan of an invocation with AddMessage().
     * \param bytes the invocation size (validated)
     */
    virtual void BuildPlan(uint64_t bytes) = 0;
    /**
     * Add a message to the plan.
     * \param src source rank \param dst destination rank (!= src) \param bytes size (>= 1)
     * \param deps messages that must have been received at `src` first
     * \return the message index
     */
    uint32_t AddMessage(uint32_t src,
                        uint32_t dst,
                        uint64_t bytes,
                        const std::vector<uint32_t>& deps = {});
    /**
     * Add the messages of ring steps [firstStep, lastStep) (global step numbering: 0..n-2
     * reduce-scatter, n-1..2n-3 all-gather); step s+1 of rank i waits for step s from rank i-1,
     * sub-chunk by sub-chunk.
     * \param bytes total size \param firstStep first step \param lastStep one past the last
     */
    void AddRingSteps(uint64_t bytes, uint32_t firstStep, uint32_t lastStep);
    /// \return sub-chunks per chunk for `chunkBytes` (SubChunks attribute, at most chunkBytes)
    uint32_t EffectiveSubChunks(uint64_t chunkBytes) const;
    /**
     * A ring collective's steps (global numbering as AddRingSteps()), which lets a backend
     * carry the whole ring as one unit (MessageTransport::StartRing).
     * \param[out] first first step \param[out] last one past the last
     * \return true for a ring collective (its plan is AddRingSteps(bytes, first, last))
     */
    virtual bool GetRingSteps(uint32_t& first, uint32_t& last) const;

    uint32_t m_subChunks{1}; //!< pipeline sub-chunks per chunk

  private:
    struct Msg
    {
        uint32_t src;
        uint32_t dst;
        uint64_t bytes;
        uint32_t pendingDeps;
        std::vector<uint32_t> dependents;
    };

    struct Invocation
    {
        uint64_t bytes;
        ParticipantCallback perRank;
        DoneCallback done;
    };

    Ptr<MessageConnection> GetQp(uint32_t src, uint32_t dst);
    /// \return the chunk rank `rank` sends in ring step `step` of an n-rank ring
    static uint32_t RingChunk(uint32_t rank, uint32_t step, uint32_t n);
    /// Offer the invocation to the transport as one ring unit. \return true if taken
    bool StartRingUnit();
    void StartNext();
    void Post(uint32_t m);
    void OnReceived(uint32_t src, uint32_t dst, uint64_t bytes);
    void OnAcked(uint32_t m);
    void Progress(uint32_t rank);

    std::vector<Ptr<MessageTransport>> m_nics;
    uint8_t m_class{DataClass::DEFAULT};
    std::map<std::pair<uint32_t, uint32_t>, Ptr<MessageConnection>> m_qps;
    std::map<std::pair<uint32_t, uint32_t>, std::deque<uint32_t>> m_inFlight;
    std::deque<Invocation> m_pending;
    bool m_running{false};
    Invocation m_cur;
    Time m_curStart;
    std::vector<Msg> m_msgs;
    std::vector<uint32_t> m_remaining; //!< per rank: events until done
    std::vector<uint64_t> m_sent;
    std::vector<uint64_t> m_received;
    uint32_t m_ranksDone{0};
    uint64_t m_completed{0};
    Time m_lastDuration;
    TracedCallback<uint64_t, Time> m_completedTrace;
    TracedCallback<uint32_t, uint64_t, uint64_t> m_participantTrace;
};

/**
 * \ingroup mlnet
 * \brief Ring all-reduce of S bytes: reduce-scatter then all-gather, n-1 steps each, chunks of
 * S/n (optionally pipelined in SubChunks pieces). Each rank sends and receives 2(n-1)/n x S.
 */
class RingAllReduce : public Collective
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    std::string GetName() const override;
    uint64_t GetMinBytes() const override;

  protected:
    void BuildPlan(uint64_t bytes) override;
    bool GetRingSteps(uint32_t& first, uint32_t& last) const override;
};

/**
 * \ingroup mlnet
 * \brief Ring reduce-scatter of S bytes: n-1 steps of S/n; each rank ends with one reduced chunk.
 */
class RingReduceScatter : public Collective
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    std::string GetName() const override;
    uint64_t GetMinBytes() const override;

  protected:
    void BuildPlan(uint64_t bytes) override;
    bool GetRingSteps(uint32_t& first, uint32_t& last) const override;
};

/**
 * \ingroup mlnet
 * \brief Ring all-gather of S bytes in total (S/n per rank): n-1 steps of S/n.
 */
class RingAllGather : public Collective
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    std::string GetName() const override;
    uint64_t GetMinBytes() const override;

  protected:
    void BuildPlan(uint64_t bytes) override;
    bool GetRingSteps(uint32_t& first, uint32_t& last) const override;
};

/**
 * \ingroup mlnet
 * \brief Broadcast of S bytes from Root along the ring (root, root+1, ...), pipelined in
 * SubChunks pieces: each rank forwards a piece as soon as it has received it.
 */
class PipelineBroadcast : public Collective
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    std::string GetName() const override;

  protected:
    void BuildPlan(uint64_t bytes) override;

  private:
    uint32_t m_root{0}; //!< source rank
};

/**
 * \ingroup mlnet
 * \brief All-to-all: every rank holds S bytes split in n parts and sends part k to rank k
 * (keeping its own), i.e. (n-1)/n x S bytes per rank, all sends at once.
 */
class AllToAll : public Collective
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    std::string GetName() const override;
    uint64_t GetMinBytes() const override;

  protected:
    void BuildPlan(uint64_t bytes) override;
};

} // namespace ns3

#endif /* MLNET_COLLECTIVE_H */
