import torch
import torch.nn as nn


class CausalAttention(nn.Module):
    """Single-head causal self-attention over a batch."""

    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        position = torch.arange(context_length)
        # not saved in state_dict (it is rebuilt from context_length), but it follows .to(device)
        self.register_buffer("future", position.unsqueeze(0) > position.unsqueeze(1), persistent=False)

    def forward(self, x):
        b, T, _ = x.shape
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        # baddbmm with beta=0 computes alpha * (q @ k^T) and never reads its first argument
        scores = torch.baddbmm(q.new_empty(b, T, T), q, k.transpose(1, 2),
                               beta=0, alpha=k.shape[-1] ** -0.5)
        scores = scores.masked_fill(self.future[:T, :T], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        return torch.bmm(weights, v)  # (b, T, d_out)
