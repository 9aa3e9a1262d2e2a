import torch
import torch.nn.functional as F
from torch import nn


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        # True where a query may look
        self.register_buffer("allowed", torch.tril(torch.ones(context_length, context_length)).bool())

    def forward(self, x):
        T = x.shape[1]
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        scores = torch.einsum("btd,bsd->bts", q, k)
        scores = scores.masked_fill(self.allowed[:T, :T], float("-inf"))
        weights = self.dropout(F.softmax(scores, dim=-1))
        return torch.einsum("bts,bsd->btd", weights, v)
