import torch
from torch import nn

LAYERS = ("W_value", "W_query", "W_key")


class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        for name in LAYERS:
            setattr(self, name, nn.Linear(d_in, d_out, bias=qkv_bias))

    def forward(self, x):
        queries = self.W_query(x)
        keys = self.W_key(x)
        values = self.W_value(x)
        scores = torch.einsum("...qd,...kd->...qk", queries, keys)
        weights = torch.softmax(scores / keys.shape[-1] ** 0.5, dim=-1)
        return torch.einsum("...qk,...kd->...qd", weights, values)
