import torch
from torch import nn


class CausalAttention(nn.Module):
    """Single-head causal self-attention over a batch."""

    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        allowed = torch.ones(context_length, context_length, dtype=torch.bool).tril()
        # rebuilt from the sizes, so it need not be saved with the weights
        self.register_buffer("allowed", allowed, persistent=False)

    def forward(self, x):
        T = x.shape[-2]
        queries = self.W_query(x) / self.W_query.out_features ** 0.5  # the scale, applied early
        keys, values = self.W_key(x), self.W_value(x)
        scores = queries @ keys.mT
        scores = torch.where(self.allowed[:T, :T], scores, scores.new_tensor(float("-inf")))
        return self.dropout(scores.softmax(dim=-1)) @ values
