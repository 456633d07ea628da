/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pcie-link-model.h"

#include "iotlb.h"

#include <stdexcept>
#include <string>

namespace ns3
{

double
PcieLinkModel::LaneRate(uint32_t generation)
{
    switch (generation)
    {
    case 1:
        return 2.5e9 * 8.0 / 10.0;
    case 2:
        return 5e9 * 8.0 / 10.0;
    case 3:
        return 8e9 * 128.0 / 130.0;
    case 4:
        return 16e9 * 128.0 / 130.0;
    case 5:
        return 32e9 * 128.0 / 130.0;
    case 6:
        return 64e9 * 236.0 / 256.0;
    default:
        throw std::invalid_argument("PcieLinkModel: generation " + std::to_string(generation) +
                                    " out of range [1, 6]");
    }
}

PcieLinkModel::PcieLinkModel(uint32_t generation,
                             uint32_t lanes,
                             uint32_t maxPayloadBytes,
                             uint32_t tlpOverheadBytes)
    : m_gen(generation),
      m_lanes(lanes),
      m_mps(maxPayloadBytes),
      m_overhead(tlpOverheadBytes)
{
    LaneRate(generation); // validates
    if (lanes == 0 || lanes > 32 || !Iotlb::IsPowerOfTwo(lanes))
    {
        throw std::invalid_argument("PcieLinkModel: lanes " + std::to_string(lanes) +
                                    " must be one of 1, 2, 4, 8, 16, 32");
    }
    if (maxPayloadBytes < 128 || maxPayloadBytes > 4096 || !Iotlb::IsPowerOfTwo(maxPayloadBytes))
    {
        throw std::invalid_argument("PcieLinkModel: max payload size " +
                                    std::to_string(maxPayloadBytes) +
                                    " bytes must be a power of two in [128, 4096]");
    }
    if (tlpOverheadBytes > 64)
    {
        throw std::invalid_argument("PcieLinkModel: TLP overhead " +
                                    std::to_string(tlpOverheadBytes) +
                                    " bytes out of range [0, 64]");
    }
}

double
PcieLinkModel::RawRate() const
{
    return LaneRate(m_gen) * m_lanes;
}

uint64_t
PcieLinkModel::WireBytes(uint64_t bytes) const
{
    uint64_t tlps = (bytes + m_mps - 1) / m_mps;
    return bytes + tlps * m_overhead;
}

double
PcieLinkModel::EffectiveRate(uint64_t bytes) const
{
    if (bytes == 0)
    {
        return 0.0;
    }
    return RawRate() * double(bytes) / double(WireBytes(bytes));
}

double
PcieLinkModel::TransferTime(uint64_t bytes) const
{
    return double(WireBytes(bytes)) * 8.0 / RawRate();
}

uint32_t
PcieLinkModel::GetGeneration() const
{
    return m_gen;
}

uint32_t
PcieLinkModel::GetLanes() const
{
    return m_lanes;
}

uint32_t
PcieLinkModel::GetMaxPayload() const
{
    return m_mps;
}

uint32_t
PcieLinkModel::GetTlpOverhead() const
{
    return m_overhead;
}

} // namespace ns3
