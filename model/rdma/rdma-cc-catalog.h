/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_RDMA_CC_CATALOG_H
#define MLNET_RDMA_CC_CATALOG_H

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief The names users give RDMA congestion control outside C++: the variants
 * ("dcqcn", "dcqcn-vendor", "fixed") and every parameter's JSON key (camelCase, as in
 * scenarios) and Python keyword (snake_case), each mapped to the ns-3 TypeId or attribute
 * (the one table the scenario parser and the Python bindings share).
 *
 * The values themselves are validated by the attributes' checkers and setters
 * (RdmaCongestionOps::SetAttributeChecked); the catalog only names things.
 */
class RdmaCcCatalog
{
  public:
    /// One user-facing parameter name.
    struct Parameter
    {
        std::string jsonKey;   //!< key in a scenario's "cc" object, e.g. "rateAi"
        std::string pythonKey; //!< Python keyword, e.g. "rate_ai"
        std::string attribute; //!< ns-3 attribute name, e.g. "RateAI"
        bool bytes;            //!< a byte count (the scenario accepts "10MB")
    };

    /// \return every parameter of every variant (a variant has a subset: see Find)
    static const std::vector<Parameter>& Parameters();
    /// \return the variant names, e.g. {"dcqcn", "dcqcn-vendor", "fixed"}
    static std::vector<std::string> Variants();
    /**
     * \param variant a variant name
     * \return its TypeId name, e.g. "ns3::Dcqcn"
     * \throws std::invalid_argument naming the accepted variants
     */
    static std::string TypeIdOf(const std::string& variant);
    /**
     * \param typeId a TypeId name
     * \return the variant name ("" if the TypeId is none of the variants)
     */
    static std::string VariantOf(const std::string& typeId);
    /**
     * \param key a JSON key, a Python keyword (also "timer" for rate_increase_timer) or an
     *        attribute name
     * \return the parameter, or null if no parameter has that name
     */
    static const Parameter* Find(const std::string& key);
    /**
     * \param typeId a TypeId name
     * \return the parameters that TypeId has (its attributes, including its parents')
     */
    static std::vector<Parameter> ParametersOf(const std::string& typeId);
};

} // namespace ns3

#endif /* MLNET_RDMA_CC_CATALOG_H */
