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
            raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        # in place: no extra (b, h, T, T) copy of the weights
        self.dropout = nn.Dropout(dropout, inplace=True)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length, dtype=torch.bool), 1))

    def forward(self, x):
        b, T, _ = x.shape
        h, hd = self.num_heads, self.head_dim
        q = self.W_query(x).view(b, T, h, hd).transpose(1, 2)
        k = self.W_key(x).view(b, T, h, hd).transpose(1, 2)
        v = self.W_value(x).view(b, T, h, hd).transpose(1, 2)
        att = (q @ k.transpose(2, 3)).masked_fill(self.mask[:T, :T], float("-inf"))
        att = torch.softmax(att / hd ** 0.5, dim=-1)
        att = self.dropout(att)
        out = (att @ v).transpose(1, 2).contiguous().view(b, T, h * hd)
        return self.out_proj(out)
