/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Doxygen only (not compiled), as ns-3's src/<module>/doc/<module>.h: the group that every
// mlnet class joins with \ingroup mlnet.

/**
 * \defgroup mlnet mlnet: packet-level networks of machine-learning training clusters
 *
 * An ns-3 contrib module: a lossless datacenter fabric (model/fabric), RDMA NICs with DCQCN
 * (model/rdma), the host interconnect (model/host), in-network aggregation
 * (model/aggregation), flow schedulers (model/scheduling), training jobs (model/workload), a
 * flow-level backend (model/flow), records and writers (model/stats), mlnet's event engine
 * (model/sim) and generic utilities (model/util); helpers in helper/, the JSON scenario
 * runner (helper/scenario*.cc) and the Python module (bindings/python). The parts and their
 * dependencies: doc/architecture.rst.
 */
