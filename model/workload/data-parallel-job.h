/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MLNET_DATA_PARALLEL_JOB_H
#define MLNET_DATA_PARALLEL_JOB_H

#include "collective.h"
#include "dnn-model.h"
#include "gpu-profile.h"
#include "gradient-aggregator.h"
#include "training-job.h"

#include "ns3/data-rate.h"
#include "ns3/message-transport.h"
#include "ns3/rdma-nic.h"
#include "ns3/tensor-order-policy.h"

#include <deque>
#include <map>
#include <set>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief Synchronous data-parallel training: every worker computes the same layer timeline
 * (GpuProfile), gradients are synchronised slice by slice in the order of a TensorOrderPolicy
 * plan by ring all-reduce, parameter servers (push then pull, slices sharded round-robin over
 * the servers) or a GradientAggregator.
 *
 * Timeline of iteration k: forward layer by layer, each layer waiting until its parameters
 * from iteration k-1 are synchronised; then backward from the last layer, emitting each
 * layer's gradient when its backward finishes (the plan's producedAt). A slice is eligible
 * once produced; eligible slices are launched in plan order while the bytes in flight stay
 * under the window (the policy's credit, else MaxInflightBytes; 0 = unlimited; ring and
 * aggregator modes launch one slice at a time). Iteration k ends when its backward ends (the
 * last one: when every slice is synchronised too), so compute = forward + backward and
 * exposed communication = the forward stalls (plus the final synchronisation).
 *
 * Servers of several GPUs (GpusPerServer = g > 1, ring mode): each worker NIC is a server of
 * g GPUs that compute the same timeline on their own batches. Every all-reduce of S bytes is
 * hierarchical, as Horovod's HOROVOD_HIERARCHICAL_ALLREDUCE and NCCL's multi-node rings do:
 * intra-server reduce-scatter, ring all-reduce of S over the servers' NICs through the fabric
 * (2(n-1)/n x S sent per NIC), intra-server all-gather. Each intra-server phase takes
 * (g-1)/g x S / IntraServerRate + (g-1) x IntraServerLatency (a ring over the server's GPUs; no
 * pipelining across phases, as Horovod runs them one after the other). With one server the
 * fabric is not used.
 *
 * Parameter-server mode with a RdmaFlowScheduler on the sending NIC: each push and pull is
 * posted through the scheduler with its declaration (see PostScheduled) instead of on the
 * job's own queue pairs.
 *
 * Parameter-server hosts (PS mode). Every worker and every server runs one framework
 * communication thread (PS-lite's / MXNet KVStore's), which handles one message at a time:
 * a worker sends its pushes (MessageOverhead each) and receives its pulls (MessageOverhead
 * each), in plan order; a server receives each push (MessageOverhead + bytes /
 * ServerSumRate: the summation into the slice's buffer), applies the update once every
 * worker's push is in (bytes / ServerUpdateRate) and sends one pull response per worker
 * (MessageOverhead each). The server thread serves its queue in arrival order, or in the
 * plan's priority order with ServerPriority (P3's server; the pulls of urgent slices go
 * first). A sender keeps at most OutstandingPerChannel messages in flight per channel (one
 * sender to one receiver; 0 = the policy's GetOutstandingPerChannel(), 0 = no limit): that is
 * how TicTac's order is enforced. With CoLocatedServers each worker host also runs a server
 * shard (as P3 and ByteScheduler deploy PS): SetServers is not needed, and the shard on a
 * worker's own host is reached without the network (only the framework costs apply). All
 * costs 0 (the defaults) is the ideal host of earlier versions, bit for bit. ServerAssignment
 * places the slices: round-robin by tensor and slice index (the default) or balanced by bytes.
 */
class DataParallelJob : public TrainingJob
{
  public:
    /// How gradients are synchronised.
    enum Mode
    {
        RING_ALLREDUCE,
        PARAMETER_SERVER,
        AGGREGATOR,
    };

    /// How parameter-server mode places the slices on the servers.
    enum ServerAssignment
    {
        ROUND_ROBIN,    //!< (tensor index + slice index) mod servers
        BALANCED_BYTES, //!< each slice, largest first, to the server with the fewest bytes
    };

    /// \return the TypeId
    static TypeId GetTypeId();
    /**
     * The servers of a plan's slices under a ServerAssignment (what a job in PS mode uses; an
     * analytical bound can place its tensors the same way).
     * \param plan slices (tensorId, offset and size are read) \param servers servers (>= 1)
     * \param assignment the rule
     * \return per slice, its server in [0, servers)
     * \throws std::invalid_argument if servers is 0
     */
    static std::vector<uint32_t> PlaceSlices(const std::vector<TransferSlice>& plan,
                                             uint32_t servers,
                                             ServerAssignment assignment);
    /**
     * \param name a placement's name as scenarios and examples spell it: "round-robin" or
     * "balanced-bytes"
     * \return the ServerAssignment
     * \throws std::invalid_argument naming the accepted values otherwise
     */
    static ServerAssignment ServerAssignmentFromName(const std::string& name);
    DataParallelJob();
    ~DataParallelJob() override;

    /**
     * \param model the DNN \param gpu compute model (batch size: BatchSize attribute)
     * \throws std::invalid_argument if the model has no parameters
     */
    void SetModel(const DnnModel& model, const GpuProfile& gpu);
    /// \param workers the workers' transports: RDMA NICs, or FluidTransports at flow level
    /// (>= 1; >= 2 for ring all-reduce)
    void SetWorkers(const std::vector<Ptr<MessageTransport>>& workers);

    /// \param workers the workers' NICs (or any transports), as above
    template <class T>
    void SetWorkers(const std::vector<Ptr<T>>& workers)
    {
        SetWorkers(std::vector<Ptr<MessageTransport>>(workers.begin(), workers.end()));
    }

    /// \param servers parameter servers' transports (PARAMETER_SERVER mode, >= 1)
    void SetServers(const std::vector<Ptr<MessageTransport>>& servers);

    /// \param servers parameter servers' NICs (or any transports), as above
    template <class T>
    void SetServers(const std::vector<Ptr<T>>& servers)
    {
        SetServers(std::vector<Ptr<MessageTransport>>(servers.begin(), servers.end()));
    }

    /// \param policy transfer order (default FIFO)
    void SetTensorOrderPolicy(Ptr<TensorOrderPolicy> policy);
    /// \param agg in-network aggregation hook (AGGREGATOR mode)
    void SetAggregator(Ptr<GradientAggregator> agg);

    /// \return the transfer plan in use
    const std::vector<TransferSlice>& GetPlan() const;
    /// \return bytes pushed by all workers so far (PS)
    uint64_t GetPushBytes() const;
    /// \return bytes pulled by all workers so far (PS)
    uint64_t GetPullBytes() const;
    /**
     * \return per server, the bytes one worker pushes to it per iteration (PS mode, after
     * Start(); empty before or in other modes): the ServerAssignment's placement
     */
    std::vector<uint64_t> GetServerBytes() const;
    /**
     * \return one line when the busiest parameter server receives more than
     * ServerImbalanceWarning times an even share of a worker's pushed bytes (its share, the
     * even share, and the busiest share BalancedBytes would give); empty otherwise, before
     * Start() and outside PS mode
     */
    std::string GetServerImbalanceWarning() const;
    /// \return forward + backward time of one iteration
    Time GetComputeTime() const;
    /// \return gradient bytes of the model
    uint64_t GetModelBytes() const;
    /// \return GPUs in the job (workers x GpusPerServer)
    uint32_t GetGpuCount() const;
    /// \return all-reduce operations started so far (fused buffers count once; ring mode)
    uint64_t GetAllReduceCount() const;
    /**
     * \param bytes buffer size \return time of one intra-server phase (reduce-scatter or
     * all-gather) of `bytes` over GpusPerServer GPUs; zero for one GPU per server
     */
    Time GetIntraServerPhaseTime(uint64_t bytes) const;

  protected:
    void DoDispose() override;
    void DoCheckConfiguration() const override;
    void DoStartIteration() override;

  private:
    /// Ring mode with fusion: one all-reduce over the ready slices, up to FusionBytes.
    void LaunchFused();
    /**
     * Ring mode: synchronise `bytes` (hierarchically when GpusPerServer > 1), then call done.
     * \param bytes buffer size \param done called when every server has the result
     */
    void StartAllReduce(uint64_t bytes, Callback<void> done);
    /// \param bytes buffer \param done callback: the inter-server ring, then the all-gather
    void InterServerPhase(uint64_t bytes, Callback<void> done);
    /// \param cb callback to run (scheduled events)
    static void RunCallback(Callback<void> cb);
    /**
     * \param planClass a plan's priority class (0 = most urgent)
     * \return the fabric class of the slice: PriorityClass - planClass, at least 0 (the job's
     * class for every slice of a one-class plan)
     */
    uint8_t SliceClass(uint8_t planClass) const;
    void Prepare();
    void ForwardNext();
    void BackwardStart();
    void Produce(uint32_t tensor);
    void BackwardDone();
    void Pump();
    void Launch(uint32_t slice);
    void SliceDone(uint32_t slice);
    void MaybeEnd();
    Ptr<MessageConnection> Qp(Ptr<MessageTransport> a,
                              Ptr<MessageTransport> b,
                              uint8_t cls,
                              bool push,
                              uint32_t w,
                              uint32_t s);

    /// A unit of work of a host's framework thread (PS mode).
    struct HostTask
    {
        uint64_t key; //!< order in the thread's queue (smaller first)
        uint64_t seq; //!< tie-break: arrival order
        uint8_t kind; //!< TaskKind
        uint32_t k;   //!< plan slice
        uint32_t w;   //!< worker
        uint32_t s;   //!< server

        /// \param o other \return true if this task goes first
        bool operator<(const HostTask& o) const
        {
            return key != o.key ? key < o.key : seq < o.seq;
        }
    };

    /// Kinds of HostTask.
    enum TaskKind : uint8_t
    {
        SEND_PUSH,
        RECV_PUSH,
        UPDATE,
        SEND_PULL,
        RECV_PULL,
    };

    /// A host's framework thread: queued tasks, one at a time.
    struct HostThread
    {
        std::set<HostTask> queue; //!< waiting tasks
        bool busy{false};         //!< a task is running
    };

    /**
     * \param host thread index (workers 0..W-1, servers W..W+S-1)
     * \param kind task kind \param k slice \param w worker \param s server
     */
    void Enqueue(uint32_t host, TaskKind kind, uint32_t k, uint32_t w, uint32_t s);
    /// \param host thread index: start the next runnable task if idle
    void Kick(uint32_t host);
    /// \param host thread index \param t the task that finished its CPU time
    void TaskDone(uint32_t host, HostTask t);
    /// \param t a task whose CPU time is over: its effect
    void Finish(const HostTask& t);
    /// \param t a task \return its CPU time on its thread
    Time TaskCost(const HostTask& t) const;
    /// \param t a send task \return true if its channel has room (or it is local)
    bool ChannelFree(const HostTask& t) const;
    /// \return messages in flight allowed per channel (0 = no limit)
    uint32_t ChannelDepth() const;
    /// \param w worker \param s server \return true if they share a host
    bool IsLocal(uint32_t w, uint32_t s) const;
    /// A push or pull message arrived at its receiver. \param push push or pull
    /// \param w worker \param s server \param k slice
    void Arrived(bool push, uint32_t w, uint32_t s, uint32_t k);
    /// Post a push (worker w to server s) or a pull response on the network.
    /// \param push push or pull \param w worker \param s server \param k slice
    void PostMessage(bool push, uint32_t w, uint32_t s, uint32_t k);
    /**
     * Post a PS message through the flow scheduler of its sending NIC, if there is one,
     * declaring it (group = this iteration's pushes or pulls, arrangement offset and deadline
     * from the consuming layer's forward start, priority = consumption order).
     * \param k slice \param push push (worker -> server) or pull
     * \param w worker \param s server
     * \return false if the sending NIC has no flow scheduler (nothing posted)
     */
    bool PostScheduled(uint32_t k, bool push, uint32_t w, uint32_t s);

    DnnModel m_model;
    std::vector<LayerTiming> m_timing;
    GpuProfile m_gpu{GpuProfile::V100()};
    bool m_hasModel{false};
    std::vector<Ptr<MessageTransport>> m_workers;
    std::vector<Ptr<MessageTransport>> m_servers;
    Ptr<TensorOrderPolicy> m_policy;
    Ptr<GradientAggregator> m_aggregator;
    Ptr<RingAllReduce> m_allReduce;
    Mode m_mode{RING_ALLREDUCE};
    uint32_t m_batch{32};
    uint32_t m_bytesPerParam{4};
    uint64_t m_maxInflight{0};
    uint32_t m_subChunks{1};
    uint64_t m_fusionBytes{0};   //!< ring mode: tensor-fusion buffer (0 = off)
    uint32_t m_gpusPerServer{1}; //!< GPUs behind each worker NIC
    DataRate m_intraRate;        //!< intra-server (NVLink/PCIe) rate per GPU
    Time m_intraLatency;         //!< intra-server per-step latency
    uint64_t m_allReduces{0};    //!< all-reduce operations started
    bool m_prepared{false};
    Time m_msgOverhead;           //!< framework CPU time per message and end (PS)
    DataRate m_sumRate;           //!< server summation rate (0 = instantaneous)
    DataRate m_updateRate;        //!< server update (apply) rate (0 = instantaneous)
    bool m_serverPriority{false}; //!< server threads serve by plan priority
    uint32_t m_channelDepth{0};   //!< messages in flight per channel (0 = the policy's)
    bool m_coLocated{false};      //!< a server shard on every worker host
    ServerAssignment m_assignment{ROUND_ROBIN}; //!< placement of the slices (PS)
    double m_imbalanceWarning{1.5};             //!< busiest server / even share that warns
    std::vector<uint32_t> m_sliceServer;        //!< PS: server of each plan slice
    std::vector<HostThread> m_threads;          //!< workers, then servers
    std::vector<uint32_t> m_channelOut;         //!< in flight per (src, dst) host pair
    uint64_t m_taskSeq{0};                      //!< arrival counter of tasks

    std::vector<GradientTensor> m_tensors;
    std::vector<TransferSlice> m_plan;
    std::vector<std::vector<uint32_t>> m_tensorSlices; //!< plan indices per tensor
    std::vector<int32_t> m_layerTensor;                //!< tensor of each layer, -1 if none
    std::vector<bool> m_paramReady;                    //!< per layer
    std::vector<uint32_t> m_tensorPending;             //!< slices not yet synchronised
    std::vector<bool> m_eligible;                      //!< per plan slice
    std::vector<bool> m_launched;                      //!< per plan slice
    std::vector<uint32_t> m_sliceWait;                 //!< PS: pushes / pulls outstanding
    std::vector<Time> m_slicePosted;
    uint32_t m_nextScan{0};
    uint64_t m_inflightBytes{0};
    uint32_t m_inflightSlices{0};
    uint32_t m_unsynced{0};
    uint32_t m_fwdLayer{0};
    bool m_fwdWaiting{false};
    bool m_bwdDone{false};
    uint64_t m_sliceSeq{0};
    uint64_t m_pushBytes{0};
    uint64_t m_pullBytes{0};
    Time m_compute;
    uint64_t m_syncIteration{0}; //!< iteration whose gradients are being synchronised
    Time m_nextForward;          //!< when the next forward pass would start (for deadlines)
    std::map<MessageConnection*, std::deque<uint32_t>> m_qpFifo;
    std::map<std::tuple<uint32_t, uint32_t, uint8_t, bool>, Ptr<MessageConnection>> m_qps;
};

} // namespace ns3

#endif /* MLNET_DATA_PARALLEL_JOB_H */
