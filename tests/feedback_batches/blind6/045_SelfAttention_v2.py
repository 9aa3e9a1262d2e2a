import math
import torch
import torch.nn.functional as F
from torch import nn


class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query, self.W_key, self.W_value = [nn.Linear(d_in, d_out, bias=qkv_bias) for _ in "qkv"]

    def forward(self, x):
        # F.linear is what nn.Linear calls: x @ weight.T (+ bias)
        q = F.linear(x, self.W_query.weight, self.W_query.bias)
        k = F.linear(x, self.W_key.weight, self.W_key.bias)
        v = F.linear(x, self.W_value.weight, self.W_value.bias)
        scores = q @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])
        return F.softmax(scores, dim=-1) @ v
