import torch
from torch import nn


class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        # created in order: query, key, value
        self.W_query, self.W_key, self.W_value = (nn.Linear(d_in, d_out, bias=qkv_bias) for _ in "qkv")

    def forward(self, x):
        q, k, v = (layer(x) for layer in (self.W_query, self.W_key, self.W_value))
        d_k = torch.tensor(k.shape[-1], dtype=x.dtype).sqrt()
        return (q @ k.transpose(0, 1)).div(d_k).softmax(dim=1) @ v
