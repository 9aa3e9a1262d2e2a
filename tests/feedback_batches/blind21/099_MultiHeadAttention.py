import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    """Causal multi-head attention, computed without splitting the tensors into heads."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads:
            raise ValueError(f"d_out={d_out} must be divisible by num_heads={num_heads}")
        self.num_heads, self.head_dim = num_heads, d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.ones(context_length, context_length, dtype=torch.bool).triu(1))
        # row h is 1 on the features of head h: a block-diagonal (h, d_out) selector
        selector = torch.block_diag(*[torch.ones(1, self.head_dim)] * num_heads)
        self.register_buffer("head_features", selector, persistent=False)

    def forward(self, x):
        T = x.shape[1]
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)  # (b, T, d_out)
        select = self.head_features.to(q.dtype)[:, None, :]  # (h, 1, d_out)
        # zeroing the other heads' query features leaves only head h's part of q . k
        scores = (q.unsqueeze(1) * select) @ k.unsqueeze(1).transpose(-2, -1)  # (b, h, T, T)
        scores = scores.masked_fill(self.mask[:T, :T], float("-inf")) / self.head_dim ** 0.5
        weights = self.dropout(torch.softmax(scores, dim=-1))  # (b, h, T, T)
        # each head writes only its own features; summing over heads places them side by side
        context = ((weights @ v.unsqueeze(1)) * select).sum(dim=1)  # (b, T, d_out)
        return self.out_proj(context)
