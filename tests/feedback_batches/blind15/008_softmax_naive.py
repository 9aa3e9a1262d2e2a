import math

import torch


def softmax_naive(x, dim=-1):
    """exp(x) / sum(exp(x)) along `dim`; the result has the shape of x."""
    # e^x written as 2^(x log2 e), the form fast kernels use
    powers = torch.exp2(x * math.log2(math.e))
    return powers / powers.sum(dim=dim, keepdim=True)
