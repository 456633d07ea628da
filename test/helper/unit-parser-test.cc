/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// UnitParser: the one parser of rates, times and byte counts shared by the JSON scenarios and
// Python. Checked against ns-3's own DataRate parser on every spelling ns-3 knows, and on the
// spellings ns-3 aborts on (binary prefixes written as "Gibps", "kib/s", ...).

#include "ns3/data-rate.h"
#include "ns3/unit-parser.h"

#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>

using namespace ns3;

TEST_CASE("helper: UnitParser agrees with ns-3's DataRate on every unit ns-3 accepts", "[helper]")
{
    // The units of ns-3.37's DataRate::DoParse.
    const char* units[] = {"bps",  "b/s",  "Bps",  "B/s",   "kbps",  "kb/s",  "Kbps",
                           "Kb/s", "kBps", "kB/s", "KBps",  "KB/s",  "Kib/s", "KiB/s",
                           "Mbps", "Mb/s", "MBps", "MB/s",  "Mib/s", "MiB/s", "Gbps",
                           "Gb/s", "GBps", "GB/s", "Gib/s", "GiB/s"};
    for (const char* u : units)
    {
        for (const char* n : {"3", "25", "100"})
        {
            const std::string s = std::string(n) + u;
            INFO(s);
            CHECK(UnitParser::RateBps(s) == DataRate(s).GetBitRate());
        }
    }
}

TEST_CASE("helper: UnitParser reads the binary prefixes ns-3 aborts on", "[helper]")
{
    const double Ki = 1024.0;
    CHECK(UnitParser::RateBps("10Gibps") == uint64_t(10 * Ki * Ki * Ki));
    CHECK(UnitParser::RateBps("10GiBps") == uint64_t(80 * Ki * Ki * Ki));
    CHECK(UnitParser::RateBps("10MiBps") == uint64_t(80 * Ki * Ki));
    CHECK(UnitParser::RateBps("10Kibps") == uint64_t(10 * Ki));
    CHECK(UnitParser::RateBps("10kib/s") == uint64_t(10 * Ki));
    CHECK(UnitParser::RateBps("10kiB/s") == uint64_t(80 * Ki));
    CHECK(UnitParser::RateBps("1Tbps") == uint64_t(1e12));
    CHECK(UnitParser::RateBps(" 2.5e1 Gbps ") == uint64_t(25e9));
    CHECK(UnitParser::RateBps(".5Mbps") == 500000);
}

TEST_CASE("helper: UnitParser rejects malformed and out-of-range rates with the syntax", "[helper]")
{
    for (const char* bad : {"",
                            "Gbps",
                            "10",
                            "10 G",
                            "10Gibs",
                            "10gbps",
                            "10GBPS",
                            "-1Gbps",
                            "1e400bps",
                            "0bps",
                            "0.4bps",
                            "2Pbps",
                            "1.1e15bps",
                            "10Gbps extra",
                            "nan bps",
                            "inf bps",
                            "0x10bps"})
    {
        INFO(bad);
        CHECK_THROWS_WITH(UnitParser::RateBps(bad), UnitParser::RATE_SYNTAX);
    }
    CHECK(UnitParser::RateBps("1e15bps") == uint64_t(1e15));
    CHECK(UnitParser::RateBps("0.5bps") == 1); // rounded to whole bit/s
    // A very long number is parsed without recursion (std::regex would overflow the stack).
    CHECK_THROWS_AS(UnitParser::RateBps(std::string(200000, '9') + "bps"), std::invalid_argument);
}

TEST_CASE("helper: UnitParser times and byte counts", "[helper]")
{
    CHECK(UnitParser::Duration("5ms") == MilliSeconds(5));
    CHECK(UnitParser::Duration("2.5 us") == NanoSeconds(2500));
    CHECK(UnitParser::Duration("1e-6s") == MicroSeconds(1));
    CHECK(UnitParser::Duration("1500ps") == NanoSeconds(2)); // rounded to the nanosecond
    CHECK(UnitParser::Duration("2min") == Seconds(120));
    CHECK(UnitParser::Duration("1h") == Seconds(3600));
    for (const char* bad : {"5", "5 sec", "-1ms", "1e400s", "1e10s", "ms", "5Ms"})
    {
        INFO(bad);
        CHECK_THROWS_WITH(UnitParser::Duration(bad), UnitParser::TIME_SYNTAX);
    }
    CHECK(UnitParser::Bytes("4MB") == 4000000);
    CHECK(UnitParser::Bytes("64 MiB") == 64ull << 20);
    CHECK(UnitParser::Bytes("1.5KB") == 1500);
    CHECK(UnitParser::Bytes("2TiB") == 2ull << 40);
    for (const std::string& bad : {std::string("4"),
                                   std::string("4mb"),
                                   std::string("4 MBs"),
                                   std::string("-1B"),
                                   std::string(400, '9') + " B"})
    {
        INFO(bad);
        CHECK_THROWS_WITH(UnitParser::Bytes(bad), UnitParser::BYTES_SYNTAX);
    }
    CHECK(UnitParser::Number(" 2.5e3 ") == 2500);
    CHECK_THROWS_AS(UnitParser::Number("2.5e3x"), std::invalid_argument);
    CHECK_THROWS_AS(UnitParser::Number("1e999"), std::invalid_argument);
}
