import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = torch.rand(d_in, d_out, requires_grad=True)
        self.W_key = torch.rand(d_in, d_out, requires_grad=True)
        self.W_value = torch.rand(d_in, d_out, requires_grad=True)

    def forward(self, x):
        queries = x @ self.W_query
        keys = x @ self.W_key
        values = x @ self.W_value
        d_k = keys.shape[1]
        attn_weights = torch.softmax(queries @ keys.T / d_k ** 0.5, dim=0)
        return attn_weights @ values
