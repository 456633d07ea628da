/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_ENUM_ACCESSOR_H
#define MLNET_ENUM_ACCESSOR_H

#include "ns3/enum.h"

namespace ns3
{

namespace mlnet_detail
{
// ns-3 <= 3.40 deduces everything from the member (MakeEnumAccessor(&C::m));
// ns-3 >= 3.41 needs the enum type first (MakeEnumAccessor<E>(&C::m)). Overload resolution
// picks whichever the installed ns-3 declares (the other is removed by SFINAE).
template <typename E, typename M>
auto
EnumAccessor(M member, int) -> decltype(MakeEnumAccessor<E>(member))
{
    return MakeEnumAccessor<E>(member);
}

template <typename E, typename M>
auto
EnumAccessor(M member, long) -> decltype(MakeEnumAccessor(member))
{
    return MakeEnumAccessor(member);
}
} // namespace mlnet_detail

/**
 * \ingroup mlnet
 * MakeEnumAccessor for an enum data member that compiles on every ns-3 mlnet supports (3.37,
 * whose MakeEnumAccessor deduces the member type, and 3.41 and later, which need the enum
 * type as a template argument).
 * \param member pointer to the enum data member
 * \return the attribute accessor
 */
template <typename C, typename E>
Ptr<const AttributeAccessor>
MakeEnumMemberAccessor(E C::*member)
{
    return mlnet_detail::EnumAccessor<E>(member, 0);
}

} // namespace ns3

#endif /* MLNET_ENUM_ACCESSOR_H */
