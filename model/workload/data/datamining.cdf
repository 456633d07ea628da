# Data mining flow sizes (VL2, Greenberg et al., SIGCOMM 2009), as distributed with the
# pFabric/PIAS simulations (in 1460-byte packets there), converted to bytes.
# size_bytes cumulative_probability
0 0
1460 0.5
2920 0.6
4380 0.7
10220 0.8
389820 0.9
3076220 0.95
97333820 0.99
973333820 1.00
