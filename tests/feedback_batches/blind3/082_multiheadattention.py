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
        if d_out % num_heads:
            raise ValueError(f"d_out ({d_out}) is not divisible by num_heads ({num_heads})")
        self.heads = num_heads
        self.scale = (d_out // num_heads) ** -0.5
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        # additive mask: 0 where visible, -inf in the future
        self.register_buffer(
            "causal_bias", torch.full((context_length, context_length), float("-inf")).triu(1)
        )

    def forward(self, x):
        b, n, _ = x.shape
        h = self.heads
        # "b n (h d) -> b h n d"
        q, k, v = (
            proj(x).unflatten(-1, (h, -1)).transpose(1, 2)
            for proj in (self.W_query, self.W_key, self.W_value)
        )
        sim = torch.einsum("bhid,bhjd->bhij", q, k) * self.scale + self.causal_bias[:n, :n]
        attn = self.dropout(sim.softmax(dim=-1))
        out = torch.einsum("bhij,bhjd->bhid", attn, v)
        # "b h n d -> b n (h d)"
        return self.out_proj(out.transpose(1, 2).flatten(2))
