import torch
from torch import nn


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        future = torch.ones(context_length, context_length, dtype=torch.bool).triu(1)
        # an additive bias: 0 where a key is visible, -inf where it comes later
        self.register_buffer("attn_bias", torch.zeros(context_length, context_length).masked_fill(future, float("-inf")))

    def forward(self, x):
        n = x.shape[-2]
        q = self.W_query(x) * self.W_query.out_features ** -0.5  # scale the queries, not the scores
        k = self.W_key(x)
        v = self.W_value(x)
        scores = q @ k.transpose(-2, -1) + self.attn_bias[:n, :n]
        return self.dropout(scores.softmax(dim=-1)) @ v
