import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    """Causal multi-head attention with one projection split across the heads."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads:
            raise ValueError(f"d_out ({d_out}) is not a multiple of num_heads ({num_heads})")
        self.num_heads, self.head_dim = num_heads, d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        # additive mask: 0 where a query may look, -inf where the key comes later
        self.register_buffer("neg_inf_above", torch.full((context_length, context_length), -torch.inf).triu(1))

    def forward(self, x):
        b, T = x.shape[0], x.shape[1]
        h, hd = self.num_heads, self.head_dim

        def fold(t):  # (b, T, d_out) -> (b * h, T, hd): every (sequence, head) pair is one batch entry
            return t.view(b, T, h, hd).transpose(1, 2).reshape(b * h, T, hd)

        q, k, v = fold(self.W_query(x)), fold(self.W_key(x)), fold(self.W_value(x))
        # baddbmm: input + alpha * (q @ kᵀ), with the mask as input
        scores = torch.baddbmm(self.neg_inf_above[:T, :T].expand(b * h, T, T), q, k.transpose(1, 2), alpha=hd ** -0.5)
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = torch.bmm(weights, v).view(b, h, T, hd)
        return self.out_proj(merge_heads(context))
