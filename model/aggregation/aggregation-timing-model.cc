/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "aggregation-timing-model.h"

#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/mlnet-enum-accessor.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(AggregationTimingModel);
NS_OBJECT_ENSURE_REGISTERED(AdderTreeTimingModel);
NS_OBJECT_ENSURE_REGISTERED(LineRateTimingModel);

namespace
{
/// The enum checker shared by both models.
Ptr<const AttributeChecker>
ElementTypeChecker()
{
    return MakeEnumChecker(AggElementType::FP32,
                           "FP32",
                           AggElementType::FP16,
                           "FP16",
                           AggElementType::INT32,
                           "INT32");
}
} // namespace

TypeId
AggregationTimingModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AggregationTimingModel").SetParent<Object>().SetGroupName("Mlnet");
    return tid;
}

AggregationTimingModel::~AggregationTimingModel() = default;

bool
AggregationTimingModel::KeepsLineRate(double portBps, uint32_t elements, uint32_t wireBytes) const
{
    double wireSeconds = double(wireBytes) * 8.0 / portBps;
    return double(elements) / GetElementRate() <= wireSeconds * (1.0 + 1e-12);
}

TypeId
AdderTreeTimingModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdderTreeTimingModel")
            .SetParent<AggregationTimingModel>()
            .SetGroupName("Mlnet")
            .AddConstructor<AdderTreeTimingModel>()
            .AddAttribute("ClockFrequency",
                          "Clock of the adder datapath (Hz), in [1e6, 1e10]",
                          DoubleValue(300e6),
                          MakeDoubleAccessor(&AdderTreeTimingModel::m_clockHz),
                          MakeDoubleChecker<double>(1e6, 1e10))
            .AddAttribute("Lanes",
                          "Parallel adders: elements summed per cycle, in [1, 65536]",
                          UintegerValue(16),
                          MakeUintegerAccessor(&AdderTreeTimingModel::m_lanes),
                          MakeUintegerChecker<uint32_t>(1, 65536))
            .AddAttribute("TreeDepth",
                          "Pipeline latency of the adder tree (cycles), in [0, 4096]",
                          UintegerValue(12),
                          MakeUintegerAccessor(&AdderTreeTimingModel::m_depth),
                          MakeUintegerChecker<uint32_t>(0, 4096))
            .AddAttribute("ElementType",
                          "Element type the adders sum",
                          EnumValue(AggElementType::FP32),
                          MakeEnumMemberAccessor(&AdderTreeTimingModel::m_type),
                          ElementTypeChecker());
    return tid;
}

AdderTreeTimingModel::AdderTreeTimingModel() = default;
AdderTreeTimingModel::~AdderTreeTimingModel() = default;

void
AdderTreeTimingModel::Validate(double clockHz, uint32_t lanes, uint32_t depth)
{
    if (!(clockHz >= 1e6 && clockHz <= 1e10))
    {
        std::ostringstream os;
        os << "aggregation hardware: clock = " << clockHz << " Hz is out of range [1e6, 1e10]";
        throw std::invalid_argument(os.str());
    }
    if (lanes < 1 || lanes > 65536)
    {
        throw std::invalid_argument("aggregation hardware: lanes = " + std::to_string(lanes) +
                                    " is out of range [1, 65536]");
    }
    if (depth > 4096)
    {
        throw std::invalid_argument("aggregation hardware: tree depth = " + std::to_string(depth) +
                                    " cycles is out of range [0, 4096]");
    }
}

uint64_t
AdderTreeTimingModel::GetBeats(uint32_t elements) const
{
    return std::max<uint64_t>(1, (uint64_t(elements) + m_lanes - 1) / m_lanes);
}

uint64_t
AdderTreeTimingModel::CycleAtOrAfter(Time t) const
{
    // Cycle boundaries are at c / f seconds; use integer picoseconds to stay exact enough
    // (1 ps at 10 GHz is 1% of a cycle; the rounding never accumulates).
    double c = std::ceil(double(t.GetPicoSeconds()) * m_clockHz * 1e-12 - 1e-6);
    return c < 0 ? 0 : uint64_t(c);
}

Time
AdderTreeTimingModel::TimeOfCycle(uint64_t c) const
{
    // Round up to the next representable instant: a result is never early.
    double ps = std::ceil(double(c) * 1e12 / m_clockHz - 1e-6);
    Time t = PicoSeconds(int64_t(ps));
    if (t.GetPicoSeconds() < int64_t(ps))
    {
        t += TimeStep(1);
    }
    return t;
}

Time
AdderTreeTimingModel::Schedule(Time arrival, uint32_t elements, Time& start)
{
    uint64_t first = CycleAtOrAfter(arrival);
    uint64_t s = std::max(first, m_freeCycle);
    m_freeCycle = s + GetBeats(elements);
    // Aligning to the next clock edge is part of the service, not waiting in the buffer.
    start = s == first ? arrival : std::max(arrival, TimeOfCycle(s));
    return std::max(arrival, TimeOfCycle(m_freeCycle + m_depth));
}

double
AdderTreeTimingModel::GetElementRate() const
{
    return double(m_lanes) * m_clockHz;
}

double
AdderTreeTimingModel::GetByteRate() const
{
    return GetElementRate() * AggElementBytes(m_type);
}

Time
AdderTreeTimingModel::GetLatency() const
{
    return PicoSeconds(int64_t(std::ceil(double(m_depth) * 1e12 / m_clockHz)));
}

AggElementType
AdderTreeTimingModel::GetElementType() const
{
    return m_type;
}

void
AdderTreeTimingModel::Reset()
{
    m_freeCycle = 0;
}

std::string
AdderTreeTimingModel::Describe() const
{
    std::ostringstream os;
    os << "adder tree " << m_lanes << " lanes x " << m_clockHz / 1e6 << " MHz, depth " << m_depth
       << " cycles, " << AggElementName(m_type) << " (" << GetByteRate() * 8 / 1e9
       << " Gb/s of elements)";
    return os.str();
}

TypeId
LineRateTimingModel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::LineRateTimingModel")
                            .SetParent<AggregationTimingModel>()
                            .SetGroupName("Mlnet")
                            .AddConstructor<LineRateTimingModel>()
                            .AddAttribute("ElementType",
                                          "Element type the datapath sums",
                                          EnumValue(AggElementType::FP32),
                                          MakeEnumMemberAccessor(&LineRateTimingModel::m_type),
                                          ElementTypeChecker());
    return tid;
}

LineRateTimingModel::LineRateTimingModel() = default;
LineRateTimingModel::~LineRateTimingModel() = default;

Time
LineRateTimingModel::Schedule(Time arrival, uint32_t elements, Time& start)
{
    start = arrival;
    return arrival;
}

double
LineRateTimingModel::GetElementRate() const
{
    return std::numeric_limits<double>::infinity();
}

Time
LineRateTimingModel::GetLatency() const
{
    return Time(0);
}

AggElementType
LineRateTimingModel::GetElementType() const
{
    return m_type;
}

void
LineRateTimingModel::Reset()
{
}

std::string
LineRateTimingModel::Describe() const
{
    return std::string("line-rate datapath, ") + AggElementName(m_type);
}

} // namespace ns3
