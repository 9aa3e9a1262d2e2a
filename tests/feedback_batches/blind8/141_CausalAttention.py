import torch
from torch import nn


class CausalAttention(nn.Module):
    """Port of Hugging Face's GPT-2 attention: the buffer `bias` is a lower-triangular
    *keep* mask (True = may attend), and masked scores get the dtype's most negative value."""

    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer(
            "bias", torch.tril(torch.ones(context_length, context_length, dtype=torch.bool)))

    def forward(self, x):
        T = x.size(1)
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        scores = torch.matmul(q, k.transpose(-1, -2)) / (v.size(-1) ** 0.5)
        keep = self.bias[:T, :T]
        scores = torch.where(keep, scores, torch.tensor(float("-inf"), dtype=scores.dtype, device=scores.device))
        weights = nn.functional.softmax(scores, dim=-1)
        return torch.matmul(self.dropout(weights), v)
