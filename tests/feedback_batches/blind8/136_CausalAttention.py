import torch
from torch import nn


class CausalAttention(nn.Module):
    """Keras/Flax-style additive mask: 0 where visible, -inf where hidden, added to the scores."""

    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        additive = torch.full((context_length, context_length), float("-inf")).triu(diagonal=1)
        self.register_buffer("additive_mask", additive)

    def forward(self, x):
        T = x.shape[-2]
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        scores = torch.einsum("btd,bsd->bts", q, k) / k.shape[-1] ** 0.5
        scores = scores + self.additive_mask[:T, :T]
        return torch.einsum("bts,bsd->btd", self.dropout(scores.softmax(dim=-1)), v)
