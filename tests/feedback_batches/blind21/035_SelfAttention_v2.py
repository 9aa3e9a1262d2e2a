import torch
from torch import nn


class SelfAttention_v2(nn.Module):
    """Self-attention with nn.Linear projections W_query, W_key, W_value."""

    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        # the key size as a buffer: follows .to(dtype/device), not saved, not trained
        self.register_buffer("key_size", torch.tensor(float(d_out)), persistent=False)

    def forward(self, x):
        scores = torch.mm(self.W_query(x), self.W_key(x).t()) / self.key_size.sqrt()
        return torch.mm(torch.softmax(scores, dim=1), self.W_value(x))
