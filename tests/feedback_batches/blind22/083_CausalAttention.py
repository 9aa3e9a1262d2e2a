import torch
from torch import nn


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("visible", torch.ones(context_length, context_length).tril().bool())  # True = may attend

    def forward(self, x):
        n = x.shape[1]
        queries = self.W_query(x) * self.W_query.out_features ** -0.5  # scale the queries, not the scores
        scores = queries @ self.W_key(x).mT
        scores = torch.where(self.visible[:n, :n], scores, torch.tensor(float("-inf"), dtype=scores.dtype, device=scores.device))
        weights = torch.log_softmax(scores, dim=-1).exp()
        return self.dropout(weights) @ self.W_value(x)
