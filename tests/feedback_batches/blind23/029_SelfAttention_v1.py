import math
import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.empty(d_in, d_out).uniform_())
        self.W_key = nn.Parameter(torch.empty(d_in, d_out).uniform_())
        self.W_value = nn.Parameter(torch.empty(d_in, d_out).uniform_())

    def forward(self, x):
        q = x.mm(self.W_query)
        k = x.mm(self.W_key)
        v = x.mm(self.W_value)
        scores = torch.mm(q, k.t()).div(math.sqrt(k.size(1)))
        return scores.softmax(1).mm(v)
