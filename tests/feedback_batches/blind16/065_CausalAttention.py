import torch
from torch import nn


class CausalAttention(nn.Module):
    """Single-head causal self-attention over a batch."""

    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        visible = torch.ones(context_length, context_length, dtype=torch.bool).tril()
        self.register_buffer("future", ~visible)

    def forward(self, x):
        T = x.shape[-2]
        q = self.W_query(x) * self.W_query.out_features ** -0.5  # scale the queries, not the scores
        k = self.W_key(x)
        v = self.W_value(x)
        logits = torch.einsum("btd,bsd->bts", q, k).masked_fill(self.future[:T, :T], float("-inf"))
        weights = self.dropout(logits.softmax(dim=-1))
        return torch.einsum("bts,bsd->btd", weights, v)
