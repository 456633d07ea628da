/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "port-classes.h"

#include <set>
#include <sstream>

namespace ns3
{

namespace
{

/// The class that carries ACKs, NACKs and CNPs (never data): DataClass::CONTROL.
constexpr uint32_t kControlClass = 7;

/// \param v classes \return "3, 6"
std::string
List(const std::vector<uint32_t>& v)
{
    std::ostringstream os;
    for (size_t i = 0; i < v.size(); ++i)
    {
        os << (i ? ", " : "") << v[i];
    }
    return os.str();
}

} // namespace

void
PortClasses::WriteCsv(std::ostream& os, const std::vector<PortClassRecord>& records)
{
    os << "node,port,class,txPackets,txBytes,pfcPauses,maxQueueBytes\n";
    for (const PortClassRecord& r : records)
    {
        // switch names ("edge0", "agg3") never hold a separator: no quoting needed
        if (r.flowLevel)
        {
            os << r.node << ',' << r.port << ',' << r.cls << ",," << r.txBytes << ",,\n";
            continue;
        }
        os << r.node << ',' << r.port << ',' << r.cls << ',' << r.txPackets << ',' << r.txBytes
           << ',' << r.pfcPauses << ',' << r.maxQueueBytes << '\n';
    }
}

std::vector<uint32_t>
PortClasses::DataClassesInUse(const std::vector<PortClassRecord>& records)
{
    std::set<uint32_t> classes;
    for (const PortClassRecord& r : records)
    {
        if (r.cls != kControlClass && (r.flowLevel ? r.txBytes > 0 : r.txPackets > 0))
        {
            classes.insert(r.cls);
        }
    }
    return {classes.begin(), classes.end()};
}

std::string
PortClasses::SplitWarning(const std::vector<uint32_t>& inUse,
                          const std::vector<TrafficClassRecord>& entries)
{
    if (inUse.size() < 2)
    {
        return "";
    }
    for (const TrafficClassRecord& e : entries)
    {
        if (e.chosen || e.split)
        {
            return ""; // the scenario chose classes: a split is what it asked for
        }
    }
    return "data traffic left the switches in " + std::to_string(inUse.size()) +
           " priority classes (" + List(inUse) +
           ") although no traffic entry sets \"class\": under strict-priority egress the "
           "higher class pre-empts the lower at every hop (see port-classes.csv; set "
           "\"dataClass\" or per-entry \"class\" to choose)";
}

} // namespace ns3
