/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLNET_CSV_COLUMNS_H
#define MLNET_CSV_COLUMNS_H

#include <cstddef>
#include <functional>
#include <ostream>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlnet
 * \brief One column of a CSV file: its header name and how a row's field is written.
 *
 * A file's header and its rows are written from the same list of columns (WriteCsvHeader,
 * WriteCsvRow), so a row always has as many fields as the header, in its order: a column is
 * added, moved or removed in one place.
 *
 * \code
 * static const std::vector<CsvColumn<Flow>> columns = {
 *     MLNET_CSV_COLUMN(Flow, "id", r.id),
 *     MLNET_CSV_COLUMN(Flow, "fct_s", r.fct),
 * };
 * WriteCsvHeader(os, columns);
 * WriteCsvRow(os, columns, flow);
 * \endcode
 */
template <class R>
struct CsvColumn
{
    const char* name;                                   //!< header name
    std::function<void(std::ostream&, const R&)> write; //!< writes exactly one field of a row
    /// written empty in a row that WriteCsvRow is told has none (StatsWriter: a per-packet
    /// counter of a flow-level record)
    bool perPacket{false};
};

/// A column whose field is `expr` of the row `r` of type R, as the stream prints it.
#define MLNET_CSV_COLUMN(R, name, expr)                                                            \
    ns3::CsvColumn<R>                                                                              \
    {                                                                                              \
        name, [](std::ostream& os, const R& r) { os << (expr); }                                   \
    }

/**
 * The header line: the columns' names.
 * \param os output stream \param columns the file's columns
 */
template <class R>
void
WriteCsvHeader(std::ostream& os, const std::vector<CsvColumn<R>>& columns)
{
    for (std::size_t i = 0; i < columns.size(); ++i)
    {
        os << (i == 0 ? "" : ",") << columns[i].name;
    }
    os << '\n';
}

/**
 * One line: the fields of `row`, in the columns' order.
 * \param os output stream \param columns the file's columns \param row the row
 * \param emptyPerPacket write the perPacket columns empty
 */
template <class R>
void
WriteCsvRow(std::ostream& os,
            const std::vector<CsvColumn<R>>& columns,
            const R& row,
            bool emptyPerPacket = false)
{
    for (std::size_t i = 0; i < columns.size(); ++i)
    {
        if (i != 0)
        {
            os << ',';
        }
        if (!(columns[i].perPacket && emptyPerPacket))
        {
            columns[i].write(os, row);
        }
    }
    os << '\n';
}

} // namespace ns3

#endif /* MLNET_CSV_COLUMNS_H */
