import torch
from torch import nn


class CausalAttention(nn.Module):
    """HF GPT-2 style: a 0/1 'bias' buffer and a 'masked_bias' fill value."""

    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=True)
        self.W_key = nn.Linear(d_in, d_out, bias=True)
        self.W_value = nn.Linear(d_in, d_out, bias=True)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("bias", torch.tril(torch.ones(context_length, context_length, dtype=torch.bool)))
        self.register_buffer("masked_bias", torch.tensor(-1e4))

    def _attn(self, query, key, value):
        w = torch.matmul(query, key.transpose(-1, -2)) / (value.size(-1) ** 0.5)
        T = query.size(-2)
        causal = self.bias[:T, :T]
        w = torch.where(causal, self.masked_bias.to(w.dtype), w)
        w = nn.functional.softmax(w, dim=-1)
        w = self.dropout(w)
        return torch.matmul(w, value)

    def forward(self, x):
        return self._attn(self.W_query(x), self.W_key(x), self.W_value(x))
