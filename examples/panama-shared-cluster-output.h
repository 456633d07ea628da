/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The outputs of the panama-shared-cluster example: the table on stdout and, with --out,
// iterations.csv, flows.csv, summary.csv and ports.csv.
#ifndef MLNET_PANAMA_SHARED_CLUSTER_OUTPUT_H
#define MLNET_PANAMA_SHARED_CLUSTER_OUTPUT_H

#include "panama-shared-cluster-run.h"

#include <fstream>
#include <string>
#include <vector>

namespace ns3
{
namespace panamacluster
{

/// The p-quantile of v (linear interpolation; 0 if empty).
double Percentile(std::vector<double> v, double p);

/// The mean of v (0 if empty).
double Mean(const std::vector<double>& v);

/// The CSV files of --out (none opened without it: rows written to them are dropped).
struct OutputFiles
{
    std::ofstream itCsv;
    std::ofstream flowCsv;
    std::ofstream sumCsv;
    std::ofstream portCsv;
};

/// Opens OUT/iterations.csv, flows.csv, summary.csv and ports.csv and writes their headers.
void OpenOutputs(const std::string& out, OutputFiles& files);

/// Prints the configuration and the table's heading.
void PrintHeading(const Options& o, uint32_t hosts);

/// Where a run belongs: its mode, load (asked and achieved), seed and scheme.
struct RunPoint
{
    std::string mode;
    double load{0};
    double achieved{0};
    uint32_t seed{0};
    std::string scheme;
};

/**
 * Reports a run: its table row (with verbose its largest queues and jobs) and its CSV rows. The
 * speed-up is the mean over jobs of ring / scheme iteration time, from ringMeans (the ring run's
 * per-job means of this load and seed; none before the ring has run).
 */
void Report(const Options& o,
            const RunPoint& point,
            const std::vector<JobPlan>& plan,
            RunResult& r,
            const std::vector<double>& ringMeans,
            bool verbose,
            OutputFiles& files);

} // namespace panamacluster
} // namespace ns3

#endif // MLNET_PANAMA_SHARED_CLUSTER_OUTPUT_H
