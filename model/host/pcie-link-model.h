/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_PCIE_LINK_MODEL_H
#define MLNET_PCIE_LINK_MODEL_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief A PCIe link between the NIC and the root complex: generation and lanes give the rate
 * after line encoding; every transaction-layer packet (TLP) of at most MaxPayloadSize bytes
 * adds a fixed header/framing overhead (pure model, no simulator).
 *
 * Per-lane rates after encoding (PCIe base specification): Gen1 2.5 GT/s and Gen2 5 GT/s with
 * 8b/10b (2.0 and 4.0 Gb/s), Gen3 8 GT/s, Gen4 16 GT/s and Gen5 32 GT/s with 128b/130b
 * (7.877, 15.754, 31.508 Gb/s), Gen6 64 GT/s in FLIT mode (236 TLP bytes per 256-byte FLIT:
 * 59.0 Gb/s). TLP overhead 24 bytes: a 4-doubleword header (64-bit address memory write,
 * 16 B), sequence number (2 B), LCRC (4 B) and framing (2 B) (Neugebauer et al., "Understanding
 * PCIe performance for end host networking", SIGCOMM 2018). Data-link packets (ACKs, flow
 * control updates) are not charged.
 */
class PcieLinkModel
{
  public:
    /**
     * \param generation 1..6 \param lanes 1, 2, 4, 8, 16 or 32
     * \param maxPayloadBytes maximum payload size: a power of two in [128, 4096]
     * \param tlpOverheadBytes overhead per TLP in [0, 64]
     * \throws std::invalid_argument naming the parameter and the accepted range
     */
    PcieLinkModel(uint32_t generation = 3,
                  uint32_t lanes = 16,
                  uint32_t maxPayloadBytes = 256,
                  uint32_t tlpOverheadBytes = 24);

    /// \param generation 1..6 \return one lane's rate after encoding, bit/s
    static double LaneRate(uint32_t generation);
    /// \return the link's rate after encoding (all lanes), bit/s
    double RawRate() const;
    /// \param bytes payload of one DMA transfer \return bytes on the link (TLP overheads added)
    uint64_t WireBytes(uint64_t bytes) const;
    /// \param bytes payload of one DMA transfer \return payload bit/s the link carries for it
    double EffectiveRate(uint64_t bytes) const;
    /// \param bytes payload of one DMA transfer \return its time on the link, seconds
    double TransferTime(uint64_t bytes) const;

    uint32_t GetGeneration() const;  //!< \return the generation
    uint32_t GetLanes() const;       //!< \return the lanes
    uint32_t GetMaxPayload() const;  //!< \return the maximum payload size
    uint32_t GetTlpOverhead() const; //!< \return the overhead per TLP

  private:
    uint32_t m_gen;
    uint32_t m_lanes;
    uint32_t m_mps;
    uint32_t m_overhead;
};

} // namespace ns3

#endif /* MLNET_PCIE_LINK_MODEL_H */
