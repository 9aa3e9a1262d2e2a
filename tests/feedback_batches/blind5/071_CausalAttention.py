import torch
from torch import nn


class CausalAttention(nn.Module):
    """einsum flavour, with a boolean 'future' buffer."""

    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        idx = torch.arange(context_length)
        self.register_buffer("future", idx[None, :] > idx[:, None], persistent=True)
        self.scale = d_out ** -0.5

    def forward(self, x):
        T = x.shape[1]
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        s = torch.einsum("btd,bsd->bts", q, k) * self.scale
        s = s.masked_fill(self.future[:T, :T], torch.finfo(s.dtype).min)
        w = self.dropout(s.softmax(dim=-1))
        return torch.einsum("bts,bsd->btd", w, v)
