"""F.scaled_dot_product_attention on an added batch dimension; the weights copied through
state_dict and load_state_dict; the scale from torch.sqrt of a tensor."""

import torch
import torch.nn.functional as F
from torch import nn


def scaled_dot_product_scores(queries, keys):
    d_k = torch.tensor(keys.shape[-1], dtype=queries.dtype, device=queries.device)
    return queries.matmul(keys.mT) / torch.sqrt(d_k)


class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x):
        q, k, v = (x.matmul(w).unsqueeze(0) for w in (self.W_query, self.W_key, self.W_value))
        return F.scaled_dot_product_attention(q, k, v).squeeze(0)


class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    def forward(self, x):
        batch = x[None]  # (1, T, d_in)
        out = F.scaled_dot_product_attention(self.W_query(batch), self.W_key(batch), self.W_value(batch))
        return out[0]


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    state = {name: getattr(sa_v2, name).weight.detach().t().contiguous()
             for name in ("W_query", "W_key", "W_value")}
    sa_v1.load_state_dict(state)
