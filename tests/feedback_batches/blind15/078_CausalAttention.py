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
        self.scaling = d_out ** -0.5  # fairseq style: scale the queries, not the scores
        self.register_buffer("future", torch.ones(context_length, context_length, dtype=torch.bool).triu(1))

    def forward(self, x):
        num_tokens = x.shape[1]
        q = self.W_query(x) * self.scaling
        k = self.W_key(x)
        v = self.W_value(x)
        scores = torch.matmul(q, k.mT)  # (b, T, T)
        # the most negative finite number: exp underflows to exactly 0, and no inf ever enters the graph
        scores = scores.masked_fill(self.future[:num_tokens, :num_tokens], torch.finfo(scores.dtype).min)
        weights = self.dropout(torch.softmax(scores, dim=-1))
        return weights @ v
