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
        # as Hugging Face's GPT-2 keeps it: True where a query may attend, with a broadcast dim in front
        causal = torch.tril(torch.ones(context_length, context_length, dtype=torch.bool))
        self.register_buffer("bias", causal.view(1, context_length, context_length))

    def forward(self, x):
        T = x.size(-2)
        query, key, value = self.W_query(x), self.W_key(x), self.W_value(x)
        attn_weights = torch.matmul(query, key.transpose(-1, -2))
        attn_weights = attn_weights / torch.full([], value.size(-1) ** 0.5, dtype=attn_weights.dtype, device=attn_weights.device)
        mask_value = torch.full([], torch.finfo(attn_weights.dtype).min, dtype=attn_weights.dtype, device=attn_weights.device)
        attn_weights = torch.where(self.bias[:, :T, :T], attn_weights, mask_value)
        attn_weights = nn.functional.softmax(attn_weights, dim=-1)
        attn_weights = self.dropout(attn_weights)
        return torch.matmul(attn_weights, value)
