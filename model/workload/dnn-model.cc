/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dnn-model.h"

#include "ns3/log.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DnnModel");

DnnModel::DnnModel(std::string name)
    : m_name(std::move(name))
{
    NS_LOG_FUNCTION(this << name);
}

const std::string&
DnnModel::GetName() const
{
    return m_name;
}

void
DnnModel::SetName(const std::string& name)
{
    NS_LOG_FUNCTION(this << name);
    m_name = name;
}

void
DnnModel::AddLayer(const LayerSpec& layer)
{
    NS_LOG_FUNCTION(this);
    m_layers.push_back(layer);
}

const std::vector<LayerSpec>&
DnnModel::GetLayers() const
{
    return m_layers;
}

std::size_t
DnnModel::GetNLayers() const
{
    return m_layers.size();
}

const LayerSpec&
DnnModel::GetLayer(std::size_t i) const
{
    if (i >= m_layers.size())
    {
        throw std::out_of_range("layer index " + std::to_string(i) + " is out of range [0, " +
                                std::to_string(m_layers.size()) + ")");
    }
    return m_layers[i];
}

uint64_t
DnnModel::GetParameterCount() const
{
    uint64_t n = 0;
    for (const auto& l : m_layers)
    {
        n += l.parameters;
    }
    return n;
}

uint64_t
DnnModel::GetParameterBytes(uint32_t bytesPerParameter) const
{
    if (bytesPerParameter == 0)
    {
        throw std::invalid_argument("bytesPerParameter = 0 is out of range (must be >= 1)");
    }
    return GetParameterCount() * bytesPerParameter;
}

double
DnnModel::GetForwardFlops() const
{
    double f = 0;
    for (const auto& l : m_layers)
    {
        f += l.forwardFlops;
    }
    return f;
}

double
DnnModel::GetForwardMacs() const
{
    double f = 0;
    for (const auto& l : m_layers)
    {
        f += l.forwardMacs;
    }
    return f;
}

uint64_t
DnnModel::GetActivationElements() const
{
    uint64_t n = 0;
    for (const auto& l : m_layers)
    {
        n += l.outputElements;
    }
    return n;
}

std::vector<std::size_t>
DnnModel::GetParameterizedLayers() const
{
    std::vector<std::size_t> idx;
    for (std::size_t i = 0; i < m_layers.size(); ++i)
    {
        if (m_layers[i].parameters > 0)
        {
            idx.push_back(i);
        }
    }
    return idx;
}

bool
DnnModel::HasMeasuredTimes() const
{
    return !m_layers.empty() && std::all_of(m_layers.begin(), m_layers.end(), [](const auto& l) {
        return l.HasMeasuredTimes();
    });
}

// ---------------------------------------------------------------------------------------------
// CSV

namespace
{

std::string
Trim(const std::string& s)
{
    std::size_t b = 0;
    std::size_t e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b])))
    {
        ++b;
    }
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])))
    {
        --e;
    }
    return s.substr(b, e - b);
}

std::vector<std::string>
SplitCsv(const std::string& line)
{
    std::vector<std::string> cells;
    std::string cell;
    std::istringstream ss(line);
    while (std::getline(ss, cell, ','))
    {
        cells.push_back(Trim(cell));
    }
    if (!line.empty() && line.back() == ',')
    {
        cells.emplace_back();
    }
    return cells;
}

[[noreturn]] void
CsvError(std::size_t line, const std::string& column, const std::string& what)
{
    throw std::invalid_argument("per-layer CSV line " + std::to_string(line) + ", column '" +
                                column + "': " + what);
}

uint64_t
ParseCount(const std::string& cell, std::size_t line, const std::string& column)
{
    if (cell.empty() || !std::all_of(cell.begin(), cell.end(), [](char c) {
            return std::isdigit(static_cast<unsigned char>(c));
        }))
    {
        CsvError(line, column, "'" + cell + "' is not a non-negative integer");
    }
    errno = 0;
    unsigned long long v = std::strtoull(cell.c_str(), nullptr, 10);
    if (errno == ERANGE)
    {
        CsvError(line, column, "'" + cell + "' is too large");
    }
    return v;
}

double
ParseMicroseconds(const std::string& cell, std::size_t line, const std::string& column)
{
    char* end = nullptr;
    errno = 0;
    double v = cell.empty() ? NAN : std::strtod(cell.c_str(), &end);
    if (cell.empty() || end != cell.c_str() + cell.size() || errno == ERANGE || !std::isfinite(v))
    {
        CsvError(line, column, "'" + cell + "' is not a number");
    }
    if (v < 0)
    {
        CsvError(line, column, "'" + cell + "' is out of range (must be >= 0 microseconds)");
    }
    return v;
}

} // namespace

DnnModel
DnnModel::FromCsv(std::istream& in, const std::string& name)
{
    NS_LOG_FUNCTION(name);
    static const char* columns[] = {"name", "parameters", "forward_us", "backward_us"};
    DnnModel model(name);
    std::string raw;
    std::size_t lineNo = 0;
    bool seenData = false;
    while (std::getline(in, raw))
    {
        ++lineNo;
        if (!raw.empty() && raw.back() == '\r')
        {
            raw.pop_back();
        }
        std::string line = Trim(raw);
        if (line.empty() || line[0] == '#')
        {
            continue;
        }
        auto cells = SplitCsv(line);
        if (!seenData && !cells.empty())
        {
            std::string first = cells[0];
            std::transform(first.begin(), first.end(), first.begin(), [](unsigned char c) {
                return std::tolower(c);
            });
            if (first == "name")
            {
                seenData = true; // header: only allowed before the first data row
                if (cells.size() != 4)
                {
                    CsvError(lineNo,
                             cells.size() < 4 ? columns[cells.size()] : "backward_us",
                             "header has " + std::to_string(cells.size()) +
                                 " columns, expected 4 (name, parameters, forward_us, "
                                 "backward_us)");
                }
                continue;
            }
        }
        seenData = true;
        if (cells.size() != 4)
        {
            CsvError(lineNo,
                     cells.size() < 4 ? columns[cells.size()] : "backward_us",
                     "found " + std::to_string(cells.size()) +
                         " columns, expected 4 (name, parameters, forward_us, backward_us)");
        }
        if (cells[0].empty())
        {
            CsvError(lineNo, "name", "empty layer name");
        }
        LayerSpec l = LayerSpec::Custom(cells[0], ParseCount(cells[1], lineNo, "parameters"));
        l.measuredForwardSeconds = ParseMicroseconds(cells[2], lineNo, "forward_us") * 1e-6;
        l.measuredBackwardSeconds = ParseMicroseconds(cells[3], lineNo, "backward_us") * 1e-6;
        model.AddLayer(l);
    }
    if (model.GetNLayers() == 0)
    {
        CsvError(lineNo, "name", "the table has no layer rows");
    }
    return model;
}

} // namespace ns3
