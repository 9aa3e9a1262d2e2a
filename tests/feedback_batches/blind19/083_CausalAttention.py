import torch
from torch import nn


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("future", torch.ones(context_length, context_length).triu(1).bool())

    def forward(self, x):
        b, T, _ = x.shape
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        # baddbmm with beta=0: alpha * (q @ k^T), the scaled scores in one call
        scores = torch.baddbmm(q.new_zeros(b, T, T), q, k.transpose(1, 2), beta=0.0, alpha=k.shape[-1] ** -0.5)
        scores = scores.masked_fill(self.future[:T, :T], float("-inf"))
        return torch.bmm(self.dropout(torch.softmax(scores, dim=-1)), v)
