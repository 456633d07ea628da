#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write the seed corpora of the fuzz targets (test/fuzz/corpus/<target>/): well-formed headers
of every kind the model sends, a few truncated and foreign ones, and scenarios covering every
section and traffic type. Run it again after changing a format; the files are committed."""
import json
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def bth(opcode, qp=0x123456, psn=0xabcdef, ack_req=True, syndrome=0, msn=0):
    b = struct.pack(">BBHII", opcode, 0, 0xFFFF, qp & 0xFFFFFF,
                    (0x80000000 if ack_req else 0) | (psn & 0xFFFFFF))
    if opcode == 0x11:
        b += struct.pack(">I", (syndrome << 24) | (msn & 0xFFFFFF))
    elif opcode == 0x81:
        b += bytes(16)
    return b


def ipv4_udp(inner, payload, dport, tos=0x0E, sport=49152):
    udp_len = 8 + len(inner) + payload
    ip = struct.pack(">BBHHHBBHII", 0x45, tos, 20 + udp_len, 0, 0x4000, 64, 17, 0, 0x0A000001,
                     0x0A000102)
    return ip + struct.pack(">HHHH", sport, dport, udp_len & 0xFFFF, 0) + inner


def pfc(enable, quanta):
    return struct.pack(">HH8H", 0x0101, enable, *quanta)


def agg(type_=0, flags=0, etype=0, scale=0, job=1, tree=0, seq=7, sender=2, fan_in=1, elements=4):
    return struct.pack(">BBBbHHIHHHH", type_, flags, etype, scale, job, tree, seq, sender, fan_in,
                       elements, 0)


def corpus():
    roce = {
        "write-only": bth(0x0A), "write-first": bth(0x06), "write-middle": bth(0x07),
        "write-last": bth(0x08), "ack": bth(0x11, msn=5), "nak": bth(0x11, syndrome=0x60, msn=9),
        "cnp": bth(0x81), "truncated-ack": bth(0x11)[:14], "truncated-cnp": bth(0x81)[:20],
        "short": bth(0x0A)[:5], "empty": b"",
    }
    roce_v2 = {
        "data": ipv4_udp(bth(0x0A), 1004, 4791), "ack": ipv4_udp(bth(0x11, msn=3), 4, 4791),
        "nak": ipv4_udp(bth(0x11, syndrome=0x60), 4, 4791), "cnp": ipv4_udp(bth(0x81), 0, 4791),
        "ce-marked": ipv4_udp(bth(0x08), 100, 4791, tos=0x0F),
        "udp-length-too-small": ipv4_udp(bth(0x0A), 0, 4791)[:24] + b"\x00\x04"
        + ipv4_udp(bth(0x0A), 0, 4791)[26:],
        "truncated": ipv4_udp(bth(0x11), 4, 4791)[:40], "ip-only": ipv4_udp(b"", 0, 4791)[:20],
    }
    pfcs = {
        "pause-3": pfc(1 << 3, [0, 0, 0, 65535, 0, 0, 0, 0]),
        "resume-3": pfc(1 << 3, [0] * 8), "all": pfc(0xFF, [i * 1000 for i in range(8)]),
        "high-bits": pfc(0xFFFF, [65535] * 8), "truncated": pfc(1, [1] * 8)[:11],
    }
    a_fp32 = agg(elements=4, flags=0x04)
    a_fp16 = agg(etype=1, elements=4, flags=0x04, type_=1)
    aggs = {
        "header": agg(), "result-ecn": agg(type_=1, flags=0x01, fan_in=8),
        "stack-fp32-values": ipv4_udp(a_fp32, 16, 48879) + bytes(range(16)),
        "stack-fp16-values": ipv4_udp(a_fp16, 8, 48879) + bytes(range(8)),
        "stack-int32-scaled": ipv4_udp(agg(etype=2, scale=-8, flags=0x04, elements=2), 8, 48879)
        + bytes(8),
        "stack-values-missing": ipv4_udp(agg(flags=0x04, elements=1000), 4000, 48879),
        "stack-size-only": ipv4_udp(agg(elements=256), 1024, 48879),
        "truncated": agg()[:9],
    }
    return {"roce-header": roce, "roce-v2-header": roce_v2, "pfc-header": pfcs,
            "aggregation-header": aggs}


def scenarios():
    rdma = {"type": "rdma", "src": 0, "dst": 3, "bytes": "64KiB", "priority": 3,
            "cc": {"variant": "dcqcn", "rateAi": "5Gbps"}, "aggressiveness": 2}
    return {
        "default": {"duration": "2ms", "traffic": [{"type": "permutation", "rate": "80Gbps"}]},
        "fat-tree": {"name": "ft", "topology": {"type": "fat-tree", "k": 4, "hostsPerEdge": 0,
                                                 "hostLinkRate": "100Gbps",
                                                 "fabricLinkRate": "10GiBps", "linkDelay": "1us"},
                     "fabric": {"pfc": True, "ecn": True, "kmin": "20KB", "kmax": 200000,
                                "pmax": 0.2, "scheduler": "dwrr", "dwrrQuantum": 1500},
                     "duration": "1ms", "drain": "10ms", "seed": 7,
                     "output": {"dir": "out", "flows": True, "ports": False},
                     "traffic": [{"type": "constant", "src": 0, "dst": 1, "rate": "10Gbps",
                                  "bytes": 1000000, "start": "1us", "payload": 1000,
                                  "priority": 1, "ect": False}]},
        "leaf-spine-rdma": {"topology": {"type": "leaf-spine", "leaves": 2, "spines": 2,
                                          "hostsPerLeaf": 2},
                            "cc": "dcqcn-vendor", "duration": "100us",
                            "traffic": [rdma, {"type": "rdma-permutation", "bytes": "1MB",
                                               "cc": "fixed"}]},
        "dumbbell-periodic": {"topology": {"type": "dumbbell", "left": 2, "right": 2},
                              "duration": "1ms",
                              "traffic": [{"type": "periodic-job", "src": 0, "dst": 2,
                                           "compute": "100us", "bytes": "1MB", "iterations": 3,
                                           "iterGainSlope": 1.5, "iterGainIntercept": 1}]},
        "jobs": {"topology": {"type": "leaf-spine", "leaves": 2, "spines": 1, "hostsPerLeaf": 4},
                 "duration": "1ms",
                 "traffic": [{"type": "data-parallel-job", "hosts": [0, 1, 2, 3], "mode": "ring",
                              "model": "resnet50", "gpu": "a100", "batch": 32,
                              "policy": "fifo", "iterations": 2},
                             {"type": "data-parallel-job", "hosts": [4, 5], "mode": "ps",
                              "servers": [6], "model": "vgg16", "iterations": 1},
                             {"type": "pipeline-job", "hosts": [0, 1], "schedule": "gpipe",
                              "microBatches": 4, "forward": "100us", "backward": "200us",
                              "activationBytes": "1MB", "iterations": 1},
                             {"type": "tensor-parallel-job", "hosts": [2, 3], "layers": 2,
                              "forward": "50us", "backward": "100us",
                              "allReduceBytes": "1MB", "iterations": 1}]},
    }


def main():
    for target, files in corpus().items():
        d = os.path.join(HERE, "corpus", target)
        os.makedirs(d, exist_ok=True)
        for name, data in files.items():
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)
    d = os.path.join(HERE, "corpus", "scenario")
    os.makedirs(d, exist_ok=True)
    for name, doc in scenarios().items():
        with open(os.path.join(d, name + ".json"), "w") as f:
            f.write(json.dumps(doc, indent=1) + "\n")
    bad = {"unknown-key.json": '{"duration": "1ms", "topology": {"kk": 4}}',
           "duplicate.json": '{"duration": "1ms", "duration": "2ms"}',
           "deep.json": "[" * 80 + "]" * 80, "overflow.json": '{"seed": 1e400}',
           "binary-rate.json": '{"duration": "1ms", "topology": {"hostLinkRate": "10Gibps"}}',
           "bad-json.json": '{"duration": "1ms",\n}'}
    for name, text in bad.items():
        with open(os.path.join(d, name), "w") as f:
            f.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
