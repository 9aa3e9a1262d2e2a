import math

import torch
from torch import nn


class SelfAttention_v2(nn.Module):
    """Self-attention with nn.Linear projections (Hugging Face-style naming)."""

    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.scale = 1.0 / math.sqrt(d_out)  # d_k = d_out: every key has d_out features

    def forward(self, hidden_states):
        query_layer = self.W_query(hidden_states)
        key_layer = self.W_key(hidden_states)
        value_layer = self.W_value(hidden_states)
        attention_scores = torch.matmul(query_layer, key_layer.transpose(-1, -2))
        attention_scores.mul_(self.scale)  # in place on our own intermediate tensor
        attention_probs = nn.functional.softmax(attention_scores, dim=-1)
        return torch.matmul(attention_probs, value_layer)
