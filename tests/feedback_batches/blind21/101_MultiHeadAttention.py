import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    """Causal multi-head attention, all heads in one block-diagonal attention matrix."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
        self.num_heads, self.head_dim = num_heads, d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("causal", torch.ones(context_length, context_length).tril())

    def forward(self, x):
        b, T, _ = x.shape
        h, hd = self.num_heads, self.head_dim

        def stacked(t):  # (b, T, d_out) -> (b, h*T, hd): head 0's tokens, then head 1's, ...
            return t.view(b, T, h, hd).transpose(1, 2).reshape(b, h * T, hd)

        q, k, v = stacked(self.W_query(x)), stacked(self.W_key(x)), stacked(self.W_value(x))
        # Kronecker product: a causal (T, T) block per head on the diagonal, nothing across heads
        eye = torch.eye(h, dtype=x.dtype, device=x.device)
        allowed = torch.kron(eye, self.causal[:T, :T].to(x.dtype)).bool()  # (h*T, h*T)
        scores = (q @ k.transpose(1, 2)).masked_fill(~allowed, float("-inf")) / hd ** 0.5
        full = torch.softmax(scores, dim=-1).view(b, h, T, h, T)
        weights = torch.diagonal(full, dim1=1, dim2=3).permute(0, 3, 1, 2).contiguous()  # (b, h, T, T)
        weights = self.dropout(weights)
        context = (weights @ v.view(b, h, T, hd)).transpose(1, 2).reshape(b, T, h * hd)
        return self.out_proj(context)
