import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.register_parameter("W_query", nn.Parameter(torch.rand(d_in, d_out)))
        self.register_parameter("W_key", nn.Parameter(torch.rand(d_in, d_out)))
        self.register_parameter("W_value", nn.Parameter(torch.rand(d_in, d_out)))

    def forward(self, x):
        q = torch.matmul(x, self.W_query)
        k = torch.matmul(x, self.W_key)
        v = torch.matmul(x, self.W_value)
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(k.size(-1))
        return torch.matmul(F.softmax(scores, dim=-1), v)
