import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    """Causal multi-head attention with one projection split across the heads."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"d_out={d_out} must be divisible by num_heads={num_heads}")
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.d_out = d_out
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("tril", torch.tril(torch.ones(context_length, context_length, dtype=torch.bool)))

    def forward(self, x):
        T = x.shape[1]
        # 1/sqrt(hd) split evenly between queries and keys keeps both factors of moderate size
        factor = self.head_dim ** -0.25
        queries = split_heads(self.W_query(x), self.num_heads) * factor
        keys = split_heads(self.W_key(x), self.num_heads) * factor
        values = split_heads(self.W_value(x), self.num_heads)
        scores = queries @ keys.transpose(-2, -1)  # (b, h, T, T)
        scores = torch.where(self.tril[:T, :T], scores, torch.tensor(float("-inf"), dtype=scores.dtype, device=scores.device))
        weights = self.dropout(scores.softmax(dim=-1))
        return self.out_proj(merge_heads(weights @ values))
