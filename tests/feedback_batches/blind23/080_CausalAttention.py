import torch
from torch import nn


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        # only the positions are stored; the mask is derived from them in forward
        self.register_buffer("positions", torch.arange(context_length))

    def forward(self, x):
        T = x.shape[1]
        pos = self.positions[:T]
        future = pos.unsqueeze(0) > pos.unsqueeze(1)  # [i, j]: key j after query i
        queries, keys, values = self.W_query(x), self.W_key(x), self.W_value(x)
        scores = torch.matmul(queries, keys.transpose(-1, -2)).masked_fill(future, -torch.inf)
        weights = torch.softmax(scores / keys.shape[-1] ** 0.5, dim=-1)
        return torch.matmul(self.dropout(weights), values)
