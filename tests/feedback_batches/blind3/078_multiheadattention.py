import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    """Causal multi-head attention with one projection split across the heads.

    Graded: what forward computes. The grader loads its weights into W_query, W_key, W_value
    (nn.Linear(d_in, d_out)) and out_proj (nn.Linear(d_out, d_out)) by name: create them in
    that order. Keep dropout (nn.Dropout): the two-heads demo reads the weights as they pass
    through it. Register the causal mask as a buffer (mask here; any name, or none with
    is_causal=True).
    forward: x (b, T, d_in) with T <= context_length -> (b, T, d_out)
    """

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"d_out ({d_out}) must be divisible by num_heads ({num_heads})")
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        # project the joined heads back to the model width
        self.out_proj = nn.Linear(d_out, d_in)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        b, num_tokens, _ = x.shape
        queries = split_heads(self.W_query(x), self.num_heads)
        keys = split_heads(self.W_key(x), self.num_heads)
        values = split_heads(self.W_value(x), self.num_heads)
        attn_scores = queries @ keys.transpose(2, 3)
        attn_scores = attn_scores.masked_fill(self.mask.bool()[:num_tokens, :num_tokens], -torch.inf)
        attn_weights = self.dropout(torch.softmax(attn_scores / self.head_dim ** 0.5, dim=-1))
        return self.out_proj(merge_heads(attn_weights @ values))
