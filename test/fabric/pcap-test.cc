/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// pcap traces of fabric ports are Ethernet (DLT_EN10MB) captures of real frames: RoCEv2 data on
// UDP 4791 and 802.1Qbb PFC frames (EtherType 0x8808, opcode 0x0101), so Wireshark decodes them.

#include "common/rdma-scenario.h"

#include "ns3/network-module.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <unistd.h>

using namespace ns3;

TEST_CASE("fabric: pcap traces are Ethernet captures of RoCEv2 and PFC frames", "[fabric]")
{
    // An 8-to-1 incast into a small buffer makes the switch pause the senders.
    FabricTopologyHelper th;
    th.Fabric().SetSwitchAttribute("BufferSize", UintegerValue(4u * 1024 * 1024));
    FabricTopology t = th.BuildDumbbell(8, 1);
    std::vector<Ptr<RdmaNic>> nics = RdmaHelper().Install(t.hosts);
    for (uint32_t i = 0; i < 8; ++i)
    {
        nics[i]->Connect(nics[8])->PostSend(2000000);
    }
    std::string prefix =
        (std::filesystem::temp_directory_path() / ("mlnet-pcap-" + std::to_string(::getpid())))
            .string();
    std::string file = prefix + ".pcap";
    th.Fabric().EnablePcap(file, t.HostDevice(0), false, true);
    Simulator::Stop(MilliSeconds(2));
    Simulator::Run();
    Simulator::Destroy();

    PcapFile pcap;
    pcap.Open(file, std::ios::in);
    REQUIRE(pcap.GetDataLinkType() == PcapHelper::DLT_EN10MB);
    uint64_t roce = 0;
    uint64_t pfc = 0;
    uint64_t acks = 0;
    uint8_t buf[2048];
    while (true)
    {
        uint32_t sec;
        uint32_t usec;
        uint32_t incl;
        uint32_t orig;
        uint32_t read;
        pcap.Read(buf, sizeof(buf), sec, usec, incl, orig, read);
        if (pcap.Eof() || read == 0)
        {
            break;
        }
        uint16_t etherType = uint16_t((buf[12] << 8) | buf[13]);
        if (etherType == 0x0800)
        {
            REQUIRE(buf[14] == 0x45);   // IPv4, 20-byte header
            REQUIRE(buf[14 + 9] == 17); // UDP
            uint16_t dport = uint16_t((buf[14 + 22] << 8) | buf[14 + 23]);
            REQUIRE(dport == 4791);        // RoCEv2
            uint8_t opcode = buf[14 + 28]; // BTH opcode
            roce += opcode <= 0x0a ? 1 : 0;
            acks += opcode == 0x11 ? 1 : 0;
        }
        else
        {
            REQUIRE(etherType == 0x8808); // MAC control
            REQUIRE(buf[0] == 0x01);      // 01:80:c2:00:00:01
            REQUIRE(buf[5] == 0x01);
            REQUIRE(((buf[14] << 8) | buf[15]) == 0x0101); // PFC opcode
            pfc++;
        }
    }
    pcap.Close();
    std::remove(file.c_str());
    INFO("data " << roce << " acks " << acks << " pfc " << pfc);
    REQUIRE(roce > 1000);
    REQUIRE(acks > 1000);
    REQUIRE(pfc > 0);
}
