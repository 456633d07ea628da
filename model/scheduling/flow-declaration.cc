/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flow-declaration.h"

namespace ns3
{

std::string
FlowArrangementName(FlowArrangement a)
{
    switch (a)
    {
    case FlowArrangement::Coflow:
        return "coflow";
    case FlowArrangement::Pipeline:
        return "pipeline";
    case FlowArrangement::Offsets:
        return "offsets";
    }
    return "unknown";
}

bool
FlowGroupSpec::operator==(const FlowGroupSpec& o) const
{
    return id == o.id && job == o.job && arrangement == o.arrangement && stageTime == o.stageTime &&
           weight == o.weight && expectedFlows == o.expectedFlows && priorities == o.priorities;
}

} // namespace ns3
